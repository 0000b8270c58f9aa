/// Something the daemon's log should say that only the server sees.
public enum ServerLogEvent: Sendable, Hashable, CustomStringConvertible {
    /// A slow reader's subscription lost the seqs `lost` (reported by `vm.overflow` on drain).
    case overflow(connection: ConnectionID, subscription: String, lost: ClosedRange<Int64>)
    /// A peer asked the daemon to stop (`daemon.shutdown`).
    case shutdownRequested(connection: ConnectionID)
    /// A method failed with an error that is not a wire error (answered -32603).
    case internalError(method: String, detail: String)

    public var description: String {
        switch self {
        case .overflow(let connection, let subscription, let lost):
            "overflow on \(connection): subscription \(subscription) lost seq \(lost.lowerBound)...\(lost.upperBound)"
        case .shutdownRequested(let connection):
            "daemon.shutdown requested by \(connection)"
        case .internalError(let method, let detail):
            "internal error in \(method): \(detail)"
        }
    }
}
