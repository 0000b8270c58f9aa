/// Values of one subscription the application will never see: `fromSeq` through `toSeq`.
///
/// Reported by ``VMClientEvent/resumed(session:lost:)``: a `vm.overflow` that came while the
/// session was detached, or a gap in `seq` (bytes the daemon had written to the dropped
/// connection that the client never read).
public struct VMLostRange: Sendable, Hashable {
    /// The subscription id.
    public var subscription: String
    /// The first lost `seq`.
    public var fromSeq: Int64
    /// The last lost `seq` (inclusive).
    public var toSeq: Int64

    /// Creates a range.
    public init(subscription: String, fromSeq: Int64, toSeq: Int64) {
        self.subscription = subscription
        self.fromSeq = fromSeq
        self.toSeq = toSeq
    }
}
