import JSONCore
import Posix
import VMTestSupport

/// The built `vmd` on a temp socket and a ``VMCtlRunner`` for the built `vmctl`, pointed at
/// it through `VMD_SOCKET`. Call ``tearDown()`` from `defer` (which also keeps the fixture
/// alive to the end of the test).
final class VMCtlFixture {
    let directory: TemporarySocketDirectory
    let daemon: DaemonProcess
    let vmctl: VMCtlRunner

    init(daemonArguments: [String] = []) throws {
        directory = try TemporarySocketDirectory()
        daemon = try DaemonProcess.start(socketPath: directory.socketPath, arguments: daemonArguments, directory: directory)
        vmctl = VMCtlRunner(executable: try BuiltProducts.executable("vmctl"), socketPath: directory.socketPath,
                            scratch: directory.path)
    }

    var socketPath: String { directory.socketPath }

    func tearDown() {
        daemon.stop()
        directory.remove(["state/vmd/vmd.log", "state/vmd", "state", "config"])
    }
}
