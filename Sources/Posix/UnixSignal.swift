#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// A signal number with names, so modules that do not import libc can speak of signals.
/// (Not `Signal`: that is ReactiveCore's RxCocoa-style trait, and both modules meet in VMTransport.)
public struct UnixSignal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let hangup = UnixSignal(rawValue: SIGHUP)
    public static let interrupt = UnixSignal(rawValue: SIGINT)
    public static let kill = UnixSignal(rawValue: SIGKILL)
    public static let user1 = UnixSignal(rawValue: SIGUSR1)
    public static let user2 = UnixSignal(rawValue: SIGUSR2)
    public static let brokenPipe = UnixSignal(rawValue: SIGPIPE)
    public static let terminate = UnixSignal(rawValue: SIGTERM)
    public static let child = UnixSignal(rawValue: SIGCHLD)

    public var description: String {
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
    public static func ignoreBrokenPipe() {
        _ = cposix_ignore_signal(SIGPIPE)
    }

    /// Sends this signal to this process (`raise`), e.g. in tests.
    public func raiseInCurrentProcess() throws {
        let number = rawValue
        try retryingOnInterrupt("raise(\(self))") { raise(number) }
    }
}
