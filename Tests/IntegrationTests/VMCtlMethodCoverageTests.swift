import Posix
import Testing
import VMProtocol
import VMTestSupport

/// vmctl's table of which command calls each method (Sources/vmctl/MethodCommands.swift) is
/// what `vmctl call` completes from; it must list every method of VMProtocol's registry, and
/// every command it names must exist.
@Suite("vmctl covers every method of the protocol", .offTheCooperativePool)
struct VMCtlMethodCoverageTests {
    static func vmctl(_ directory: TemporarySocketDirectory) throws -> VMCtlRunner {
        VMCtlRunner(
            executable: try BuiltProducts.executable("vmctl"), socketPath: directory.file("nobody.sock"),
            scratch: directory.path)
    }

    @Test("'vmctl call' completes exactly the registry's methods, in its order, without a daemon")
    func callCompletesEveryMethod() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let outcome = try Self.vmctl(directory).run(["__complete", "call", ""])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.lines == VMMethods.all)
    }

    @Test("every subcommand the table names exists: its --help succeeds")
    func namedCommandsExist() throws {
        let path = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
            + "/Sources/vmctl/MethodCommands.swift"
        let source = String(decoding: try FileSystem.readFile(path), as: UTF8.self)
        let marker = "command: \""
        var commands: [String] = []
        var rest = Substring(source)
        while let start = rest.firstRange(of: marker) {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            commands.append(String(rest[..<end]))
        }
        #expect(commands.count == VMMethods.all.count)
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmctl = try Self.vmctl(directory)
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let subcommand = words.first == "call" ? ["call"] : words
            let outcome = try vmctl.run(subcommand + ["--help"])
            #expect(outcome.status == 0, "vmctl \(command): \(outcome)")
        }
    }
}
