import Testing
import VMProtocol
import VMTestSupport

/// vmctl's table of which command calls each method (Sources/vmctl/MethodCommands.swift) is
/// what `vmctl call` completes from; it must list every method of VMProtocol's registry.
@Suite("vmctl covers every method of the protocol")
struct VMCtlMethodCoverageTests {
    @Test("'vmctl call' completes exactly the registry's methods, in its order, without a daemon")
    func callCompletesEveryMethod() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmctl = VMCtlRunner(
            executable: try BuiltProducts.executable("vmctl"), socketPath: directory.file("nobody.sock"),
            scratch: directory.path)
        let outcome = try vmctl.run(["__complete", "call", ""])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.lines == VMMethods.all)
    }
}
