/// How far an execution of an ``Action`` has come: `completed` units of an optional `total`,
/// with an optional sentence for a person.
///
/// Values are sanitized on creation so that every progress can be written as JSON: a
/// negative or non-finite `completed` becomes 0, a negative or non-finite `total` is dropped.
public struct ActionProgress: Sendable, Hashable, CustomStringConvertible {
    /// Units done so far; never decreases within one execution (the action raises a smaller
    /// value to the last one it passed on).
    public var completed: Double
    /// Units in all, when known.
    public var total: Double?
    /// What is happening now ("Uploading photo.jpg").
    public var message: String?

    public init(completed: Double, total: Double? = nil, message: String? = nil) {
        self.completed = completed.isFinite ? max(0, completed) : 0
        self.total = total.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        self.message = message
    }

    /// `completed / total` between 0 and 1, when the total is known and not zero.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, completed / total)
    }

    public var description: String {
        var text = total.map { "\(completed)/\($0)" } ?? "\(completed)"
        if let message { text += " \(message)" }
        return text
    }
}

/// What an action's work uses to report its progress, on the graph's thread (work made of
/// observables). Reports after the execution ended are ignored.
///
/// Async work gets an ``AsyncProgressReporter`` instead, callable from any thread.
public final class ActionProgressReporter {
    @usableFromInline let deliver: (ActionProgress) -> Void

    @usableFromInline init(deliver: @escaping (ActionProgress) -> Void) {
        self.deliver = deliver
    }

    /// Reports `progress` for this execution.
    public func report(_ progress: ActionProgress) {
        deliver(progress)
    }

    /// Reports `completed` units of `total`, with an optional message.
    public func report(completed: Double, total: Double? = nil, message: String? = nil) {
        deliver(ActionProgress(completed: completed, total: total, message: message))
    }
}

/// What an action's `async` work uses to report its progress: callable from any thread, each
/// report hops to the graph through the action's ``SerialScheduler`` in the order it was made,
/// so a report made before the work returns reaches observers before its result.
public struct AsyncProgressReporter: Sendable {
    private let scheduler: any SerialScheduler
    private let reporter: GraphConfined<ActionProgressReporter>

    /// A reporter passing reports on to `reporter` through `scheduler`; make it on the graph's
    /// thread (in a work factory), where `reporter` lives.
    public init(scheduler: any SerialScheduler, reporter: ActionProgressReporter) {
        self.scheduler = scheduler
        self.reporter = GraphConfined(reporter)
    }

    /// Reports `progress` for this execution.
    public func report(_ progress: ActionProgress) {
        let reporter = reporter
        scheduler.enqueue { reporter.value.report(progress) }
    }

    /// Reports `completed` units of `total`, with an optional message.
    public func report(completed: Double, total: Double? = nil, message: String? = nil) {
        report(ActionProgress(completed: completed, total: total, message: message))
    }
}
