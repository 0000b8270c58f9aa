import CPosix

/// A signal caught into a pipe instead of its default action, so a single-threaded blocking
/// program (`vmctl exec` and Ctrl-C) can check between waits whether it arrived.
///
/// Dispositions are process wide; the default action comes back when this is released.
public final class CaughtSignal {
    private let signal: UnixSignal
    private let pipe: (read: FileDescriptor, write: FileDescriptor)

    /// Starts catching `signal`.
    public init(_ signal: UnixSignal) throws {
        self.signal = signal
        pipe = try FileDescriptor.pipe(nonBlocking: true)
        let number = signal.rawValue
        let writeFD = pipe.write.rawValue
        try retryingOnInterrupt("sigaction(\(signal))") { cposix_forward_signal(number, writeFD) }
    }

    deinit {
        _ = cposix_forward_signal(signal.rawValue, -1)
    }

    /// Whether the signal arrived since this was made (without waiting).
    public var hasArrived: Bool {
        guard let ready = try? pipe.read.wait(for: .readable, timeout: .zero) else { return false }
        return !ready.isEmpty
    }
}
