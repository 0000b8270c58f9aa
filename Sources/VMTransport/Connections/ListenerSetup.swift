import Posix

/// Opens the daemon's listening socket: the one systemd passed (socket activation), else a new
/// one at the configured path after the start-up safety checks (PROTOCOL.md §12).
package enum ListenerSetup {
    /// An open listener and how it was obtained.
    package struct Opened {
        package let listener: UnixListener
        /// Passed by systemd; its file belongs to systemd and is never unlinked.
        package let isSocketActivated: Bool
        /// A socket file nobody answered on was found and replaced.
        package let replacedStaleSocket: Bool
    }

    /// Adopts an activated socket when `acceptsSocketActivation` and one was passed; otherwise
    /// checks the directory (0700, ours, not a symlink; created when missing), refuses a path
    /// that is too long, a live daemon or a file that is not a socket, replaces a stale socket,
    /// and binds a new 0600 socket.
    package static func open(socketPath: String, acceptsSocketActivation: Bool) throws(StartupError) -> Opened {
        do {
            if acceptsSocketActivation,
               let listener = try SocketActivation.takeListener(address: try? UnixSocketAddress(path: socketPath))
            {
                return Opened(listener: listener, isSocketActivated: true, replacedStaleSocket: false)
            }
            let address = try UnixSocketAddress(path: socketPath)
            let found = try SocketPathGuard.prepare(address, requirePrivateDirectory: true)
            let listener: UnixListener
            do {
                listener = try UnixListener.bind(to: address)
            } catch let error as SystemError where error.errno == SystemError.addressInUse {
                // Another daemon bound the path between our probe and our bind.
                throw SocketPathError.alreadyListening(path: socketPath)
            }
            return Opened(listener: listener, isSocketActivated: false, replacedStaleSocket: found == .staleSocket)
        } catch let error as SocketPathError {
            throw StartupError(error.description, isAlreadyRunning: error == .alreadyListening(path: socketPath))
        } catch {
            throw StartupError("cannot listen on \(socketPath): \(error)", isAlreadyRunning: false)
        }
    }
}
