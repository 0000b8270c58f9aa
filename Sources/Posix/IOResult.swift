/// What a read on a possibly nonblocking descriptor produced.
public enum ReadResult: Equatable, Sendable {
    /// This many bytes (at least one) were read.
    case bytes(Int)
    /// The peer closed its end (read returned 0).
    case endOfFile
    /// Nothing to read now (`EAGAIN`); wait for readability.
    case wouldBlock
}

/// What a write on a possibly nonblocking descriptor produced.
public enum WriteResult: Equatable, Sendable {
    /// This many bytes were written (possibly fewer than offered: a short write).
    case bytes(Int)
    /// The kernel buffer is full (`EAGAIN`); wait for writability.
    case wouldBlock
}
