/// One run of an action's work.
@usableFromInline final class Execution<Element> {
    @usableFromInline let replay = ReplaySubject<Element>.createUnbounded()
    @usableFromInline let workSubscription = SingleAssignmentDisposable()
    @usableFromInline var subscriberCount = 0
    @usableFromInline var isFinished = false
    /// Told of this execution's progress (the caller's `onProgress`), if anyone asked.
    @usableFromInline var onProgress: ((ActionProgress) -> Void)?
    /// The largest `completed` passed on so far (progress never goes back).
    @usableFromInline var lastCompleted = 0.0
    /// For an execution accepted but not started yet (a queued one): starts its work.
    @usableFromInline var pendingStart: (() -> Void)?

    @inlinable init(onProgress: ((ActionProgress) -> Void)?) {
        self.onProgress = onProgress
    }
}

/// How an action makes the work of one execution.
@usableFromInline enum ActionWork<Input, Element> {
    /// Work that reports no progress.
    case plain((Input) -> Observable<Element>)
    /// Work given a reporter for its execution's progress.
    case reporting((Input, ActionProgressReporter) -> Observable<Element>)
}

/// The executions of an action whose strategy is not ``ActionStrategy/exclusive``, besides
/// the action's `current` one. Exclusive actions (most of them) have none of this.
@usableFromInline final class ActionLanes<Element> {
    @usableFromInline let strategy: ActionStrategy
    /// `concurrent`: every running execution, oldest first (the action's `current` is the last).
    @usableFromInline var running: [Execution<Element>] = []
    /// `queue`: the executions waiting behind the action's `current`, in order.
    @usableFromInline var waiting: [Execution<Element>] = []

    @usableFromInline init(strategy: ActionStrategy) {
        self.strategy = strategy
    }

    /// Whether one more execution may be accepted, `current` being the action's.
    @usableFromInline func admitsAnother(current: Execution<Element>?) -> Bool {
        switch strategy.kind {
        case .exclusive: return current == nil
        case .latest: return true
        case .queue: return current == nil || waiting.count < strategy.limit
        case .concurrent: return running.count < strategy.limit
        }
    }

    /// Cancels every execution it holds (the action is going away).
    @usableFromInline func disposeAll() {
        for execution in running + waiting {
            execution.pendingStart = nil
            execution.workSubscription.dispose()
        }
        running = []
        waiting = []
    }
}
