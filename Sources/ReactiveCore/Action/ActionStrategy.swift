/// What an ``Action`` does with an execution requested while another one runs.
///
/// - ``exclusive`` (the default): one execution at a time; another `execute` meanwhile is
///   refused with ``ActionError/notEnabled``, and ``Action/enabled`` is `false` while it runs.
/// - ``latest``: the new execution wins. The running one is cancelled (its work disposed,
///   an async work's `Task` cancelled) and its observable fails with
///   ``ActionError/superseded``; ``Action/executing`` stays `true` across the hand-over.
/// - ``queue``: executions run one after another, in the order they were requested. At most
///   ``limit`` executions wait behind the running one (``defaultQueueLimit`` unless given);
///   while the queue is full the action is not enabled and `execute` is refused.
/// - ``concurrent``: every execution starts at once, up to ``limit`` running together
///   (``defaultConcurrentLimit`` unless given); past it `execute` is refused.
///
/// In every strategy `enabledIf` gates new executions only: those already accepted (queued
/// ones included) run to their end.
public struct ActionStrategy: Sendable, Hashable, CustomStringConvertible {
    /// The four strategies.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case exclusive, latest, queue, concurrent
    }

    /// Which strategy.
    public let kind: Kind
    /// For ``Kind/queue``, how many executions may wait behind the running one; for
    /// ``Kind/concurrent``, how many may run at once; `1` for the others.
    public let limit: Int

    /// How many executions a ``queue`` holds behind the running one by default.
    public static let defaultQueueLimit = 16
    /// How many executions ``concurrent`` runs at once by default.
    public static let defaultConcurrentLimit = 64

    /// One execution at a time; the others are refused (today's rule, the default).
    public static let exclusive = ActionStrategy(kind: .exclusive, limit: 1)
    /// A new execution cancels the running one, which fails with ``ActionError/superseded``.
    public static let latest = ActionStrategy(kind: .latest, limit: 1)
    /// One after another, at most ``defaultQueueLimit`` waiting.
    public static let queue = ActionStrategy(kind: .queue, limit: defaultQueueLimit)
    /// All at once, at most ``defaultConcurrentLimit`` running.
    public static let concurrent = ActionStrategy(kind: .concurrent, limit: defaultConcurrentLimit)

    /// One after another, at most `limit` (at least 1) waiting behind the running one.
    public static func queue(limit: Int) -> ActionStrategy {
        ActionStrategy(kind: .queue, limit: max(1, limit))
    }

    /// All at once, at most `limit` (at least 1) running together.
    public static func concurrent(limit: Int) -> ActionStrategy {
        ActionStrategy(kind: .concurrent, limit: max(1, limit))
    }

    private init(kind: Kind, limit: Int) {
        self.kind = kind
        self.limit = limit
    }

    /// The strategy's name (`"queue"`), as `vm.types` shows it.
    public var description: String { kind.rawValue }
}
