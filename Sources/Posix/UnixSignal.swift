#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// A signal number with names, so modules that do not import libc can speak of signals.
/// (Not `Signal`: that is ReactiveCore's RxCocoa-style trait, and both modules meet in VMTransport.)
package struct UnixSignal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let hangup = UnixSignal(rawValue: SIGHUP)
    package static let interrupt = UnixSignal(rawValue: SIGINT)
    package static let kill = UnixSignal(rawValue: SIGKILL)
    package static let user1 = UnixSignal(rawValue: SIGUSR1)
    package static let user2 = UnixSignal(rawValue: SIGUSR2)
    package static let brokenPipe = UnixSignal(rawValue: SIGPIPE)
    package static let terminate = UnixSignal(rawValue: SIGTERM)
    package static let child = UnixSignal(rawValue: SIGCHLD)

    package var description: String {
        switch rawValue {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGKILL: return "SIGKILL"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGPIPE: return "SIGPIPE"
        case SIGTERM: return "SIGTERM"
        case SIGCHLD: return "SIGCHLD"
        default: return "signal \(rawValue)"
        }
    }

    /// Ignores SIGPIPE for the whole process, so a peer that disconnects mid-write costs an
    /// `EPIPE` error instead of the process. Call once at start-up; idempotent.
    /// (Children spawned by ``ChildProcess`` get default dispositions back.)
    package static func ignoreBrokenPipe() {
        _ = cposix_ignore_signal(SIGPIPE)
    }

    /// Sends this signal to this process (`raise`), e.g. in tests.
    package func raiseInCurrentProcess() throws {
        let number = rawValue
        try retryingOnInterrupt("raise(\(self))") { raise(number) }
    }
}
