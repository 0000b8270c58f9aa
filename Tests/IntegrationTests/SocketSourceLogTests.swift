import Posix
import Testing
import VMTestSupport

/// The start-up log names the rule that chose the socket: the flag and `VMD_SOCKET` each say
/// so (both reach RuntimePaths as one given path), as do the runtime directory and the default.
@Suite("vmd's start-up log names where its socket came from", .offTheCooperativePool)
struct SocketSourceLogTests {
    enum Given: String, CaseIterable, CustomTestStringConvertible {
        case flag, environment, runtimeDirectory
        var testDescription: String { rawValue }
    }

    @Test("the listening line's source is --socket, VMD_SOCKET or XDG_RUNTIME_DIR, whichever gave the path", arguments: Given.allCases)
    func listeningLineNamesTheSource(given: Given) throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        var environment: [String: String] = [:]
        let expected: String
        switch given {
        case .flag:
            expected = "source=--socket"
        case .environment:
            environment["VMD_SOCKET"] = socket
            expected = "source=VMD_SOCKET"
        case .runtimeDirectory:
            environment["XDG_RUNTIME_DIR"] = directory.path
            expected = "source=XDG_RUNTIME_DIR"
        }
        let vmd = try DaemonProcess.start(socketPath: socket, environment: environment, directory: directory,
                                          passSocketFlag: given == .flag)
        vmd.stop()
        let listening = vmd.log.split(separator: "\n").first { $0.contains("listening") } ?? ""
        #expect(listening.contains("socket=\(socket)"), "\(vmd.log)")
        #expect(listening.hasSuffix(expected), "\(vmd.log)")
    }
}
