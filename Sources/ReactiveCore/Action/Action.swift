/// A unit of work started by an input, with RxSwiftCommunity Action's rules and
/// ReactiveSwift's fixes where Action misbehaves.
///
/// Rules (all tested):
/// - **One execution at a time** by default. ``execute(_:)`` while executing, or while
///   `enabledIf`'s latest value is `false`, does not run the work: it emits
///   ``ActionError/notEnabled`` on ``errors`` and returns an observable failing with it.
///   Another ``ActionStrategy`` changes what a second execution does: `latest` supersedes the
///   running one (which fails with ``ActionError/superseded``, not sent to ``errors``: it is
///   the caller's doing, like a disposal), `queue` runs it after the others, `concurrent`
///   runs it at once; each has a documented bound past which `execute` is refused.
/// - **Progress.** Work made with a reporter (``init(strategy:enabledIf:reportingWork:)``,
///   or the `async` form) reports ``ActionProgress``; each report reaches ``progress`` and the
///   `onProgress` of ``execute(_:onProgress:)``, in order, with `completed` never decreasing,
///   and only while its execution runs: never after its last element and end.
/// - **Enabled starts `false`** until `enabledIf` emits. The default `enabledIf`
///   (`.just(true)`) emits while `init` subscribes to it, so a default action is enabled as soon
///   as it exists. ``enabled`` is `enabledIf && !executing` (`exclusive`), `enabledIf` (`latest`),
///   `enabledIf` and room in the queue or the running set (`queue`, `concurrent`), replayed
///   and distinct.
/// - **Every element reaches ``elements``**, including those the work emits synchronously
///   inside `execute`; the observable `execute` returns replays the whole execution to any
///   subscriber, however late.
/// - **Errors** of the work are emitted on ``errors`` as ``ActionError/underlyingError(_:)``,
///   and the execution's observable fails with the same `ActionError`.
/// - **Disposing an execution cancels it** (ReactiveSwift's rule): when every subscriber of
///   the observable `execute` returned has disposed before the execution ended, the work's
///   subscription is disposed (cancelling an async work's `Task`) and the action is enabled
///   again at once. An execution nobody subscribes to (started through ``inputs``, or whose
///   result is ignored) runs to its end.
/// - **Order of notifications:** ``executing`` becomes `true`, ``executionObservables`` emits,
///   the elements follow (each reaches ``elements``); a failure reaches ``errors`` as
///   ``ActionError/underlyingError(_:)``. Only then ``executing`` becomes `false` (the action is
///   enabled again), so success and failure read the same way: the outcome, then the end of
///   the execution. The execution's observable completes or fails last, so a subscriber
///   reacting to its end may execute again.
/// - **Subjects are created on demand.** ``errors``, ``executing``, ``enabled`` and
///   ``executionObservables`` cost nothing until read: a behavior subject created late starts
///   from the action's current state, and an event no one could observe is not sent.
///
/// Single-threaded like the rest of the graph (see ``Observable``); async work hops back
/// through a ``SerialScheduler``.
///
/// Its creation and execution paths are `@inlinable` so that they specialize in the module
/// that names `Input` and `Element` (a view model's), like the operators (see `Sink.swift`):
/// unspecialized, every action of a created instance paid generic metadata lookups.
public final class Action<Input, Element> {
    /// Creates the work observable for one input.
    public typealias WorkFactory = (Input) -> Observable<Element>
    /// Creates the work observable for one input, given the reporter of its execution's progress.
    public typealias ReportingWorkFactory = (Input, ActionProgressReporter) -> Observable<Element>

    @usableFromInline let work: ActionWork<Input, Element>
    // Assigned in the inlinable `init` rather than by an initial value: initial values are
    // out-of-line generic functions that look type metadata up at run time for every action.
    @usableFromInline let elementsSubject: PublishSubject<Element>
    // Created by the first read of their public observable (most view models never read
    // most of them; each subject is a few hundred bytes per instance). Until then nobody can
    // observe them, so events for them are dropped.
    //
    // Exclusivity: the `var`s below are `@exclusivity(unchecked)` (dynamic checks were ~14 of
    // them per created action). Safe for the reason given on `Sink`: every access is a single
    // read or assignment that runs no other code; a subject is loaded into a temporary before
    // it is sent to, so no access spans a call that could re-enter the action.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var errorsSubject: PublishSubject<ActionError>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var executingSubject: BehaviorSubject<Bool>?
    /// `enabled` and `executionObservables`, behind one reference (see ActionRareSubjects.swift).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var rareSubjects: ActionRareSubjects?
    /// The subscriber itself, not an existential: one word instead of five keeps the action
    /// in a smaller malloc size class.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var enabledIfSubscription: ClosureSubscriber<Bool>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var current: Execution<Element>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var enabledIfValue: Bool
    /// The last value sent to the `enabled` subject; the subject's own `value` lags behind while a
    /// re-entrant send is queued, so it cannot be used to decide whether to send.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var lastEnabledSent: Bool

    /// Executes the action for each element received; the executions run to their end.
    /// Terminal events are ignored.
    ///
    /// Made on each read rather than stored: few actions are driven through it.
    public var inputs: AnyObserver<Input> {
        AnyObserver { [weak self] event in
            if case .next(let input) = event { _ = self?.execute(input) }
        }
    }

    /// The elements of every execution.
    ///
    /// Inlinable, so that it specializes where `Element` is known, as the rest of an action's
    /// creation path does.
    @inlinable public var elements: Observable<Element> { elementsSubject.asObservable() }

    /// Not-enabled refusals and the work's errors.
    public var errors: Observable<ActionError> {
        if let errorsSubject { return errorsSubject.asObservable() }
        let subject = PublishSubject<ActionError>()
        errorsSubject = subject
        return subject.asObservable()
    }

    /// Whether an execution is running; replays the current value, then changes only.
    public var executing: Observable<Bool> {
        if let executingSubject { return executingSubject.asObservable() }
        let subject = BehaviorSubject(value: isExecuting)
        executingSubject = subject
        return subject.asObservable()
    }

    /// Whether `execute` would run the work; replays the current value, then changes only.
    public var enabled: Observable<Bool> {
        let rare = madeRareSubjects()
        if let enabled = rare.enabled { return enabled.asObservable() }
        // `lastEnabledSent`, not `isEnabled`: the value the action last announced, so the
        // change to `isEnabled` an ongoing `updateEnabled()` is about to send is not lost.
        let subject = BehaviorSubject(value: lastEnabledSent)
        rare.enabled = subject
        return subject.asObservable()
    }

    /// The progress of every execution, as its work reports it (concurrent executions'
    /// reports interleave; ``execute(_:onProgress:)`` gives one execution's).
    public var progress: Observable<ActionProgress> {
        let rare = madeRareSubjects()
        if let progress = rare.progress { return progress.asObservable() }
        let subject = PublishSubject<ActionProgress>()
        rare.progress = subject
        return subject.asObservable()
    }

    /// How a second execution is treated.
    public var strategy: ActionStrategy { lanes?.strategy ?? .exclusive }

    /// The executions besides ``current`` of a strategy other than `exclusive`, kept with the
    /// rare subjects so that an exclusive action (most of them) is no bigger for it; `nil` for
    /// an exclusive action, found without a cast.
    @inlinable var lanes: ActionLanes<Element>? {
        guard let lanes = rareSubjects?.lanes else { return nil }
        // Always this type: `init` is the only code storing it.
        return lanes as? ActionLanes<Element>
    }

    /// Each execution's observable, as it starts (each replays its execution).
    public var executionObservables: Observable<Observable<Element>> {
        let rare = madeRareSubjects()
        if let executions = executionSubject { return executions.asObservable() }
        let subject = PublishSubject<Observable<Element>>()
        rare.executions = subject
        return subject.asObservable()
    }

    /// The subject behind ``executionObservables``, once read.
    @inlinable var executionSubject: PublishSubject<Observable<Element>>? {
        guard let executions = rareSubjects?.executions else { return nil }
        // Always this type: `executionObservables` is the only code storing it.
        return unsafeDowncast(executions, to: PublishSubject<Observable<Element>>.self)
    }

    /// ``rareSubjects``, made now if this is the first read of a property it backs.
    func madeRareSubjects() -> ActionRareSubjects {
        if let rareSubjects { return rareSubjects }
        let made = ActionRareSubjects()
        rareSubjects = made
        return made
    }

    /// Whether an execution is running (or, for `queue`, about to start) now.
    @inlinable public var isExecuting: Bool { current != nil }

    /// Whether `execute` would accept an execution now.
    @inlinable public var isEnabled: Bool {
        guard enabledIfValue else { return false }
        guard let lanes else { return current == nil }
        return lanes.admitsAnother(current: current)
    }

    /// An action running `workFactory(input)` for each execution, allowed while `enabledIf`'s
    /// latest value is `true`.
    @inlinable public convenience init(enabledIf: Observable<Bool> = .just(true), workFactory: @escaping WorkFactory) {
        self.init(enabledIfSource: enabledIf, work: .plain(workFactory), strategy: .exclusive)
    }

    /// An action running `workFactory(input)` for each execution with `strategy`, allowed
    /// while `enabledIf`'s latest value is `true`.
    public convenience init(strategy: ActionStrategy, enabledIf: Observable<Bool> = .just(true), workFactory: @escaping WorkFactory) {
        self.init(enabledIfSource: enabledIf, work: .plain(workFactory), strategy: strategy)
    }

    /// An action whose work reports its progress through the reporter it is given (one per
    /// execution), with `strategy`, allowed while `enabledIf`'s latest value is `true`.
    public convenience init(
        strategy: ActionStrategy = .exclusive,
        enabledIf: Observable<Bool> = .just(true),
        reportingWork: @escaping ReportingWorkFactory
    ) {
        self.init(enabledIfSource: enabledIf, work: .reporting(reportingWork), strategy: strategy)
    }

    /// An action running `workFactory(input)` for each execution, allowed whenever it is not
    /// executing: the same as `init(enabledIf: .just(true), workFactory:)`, which is what a call
    /// without `enabledIf` picks, without making the `just` for each action.
    @inlinable public convenience init(workFactory: @escaping WorkFactory) {
        self.init(enabledIfSource: nil, work: .plain(workFactory), strategy: .exclusive)
    }

    /// The initializer behind the public ones; a `nil` source is always `true`.
    @inlinable init(enabledIfSource: Observable<Bool>?, work: ActionWork<Input, Element>, strategy: ActionStrategy) {
        self.work = work
        elementsSubject = PublishSubject()
        errorsSubject = nil
        executingSubject = nil
        rareSubjects = nil
        enabledIfSubscription = nil
        current = nil
        enabledIfValue = false
        lastEnabledSent = false
        if strategy.kind != .exclusive {
            let rare = ActionRareSubjects()
            rare.lanes = ActionLanes<Element>(strategy: strategy)
            rareSubjects = rare
        }
        // A `just` (the default `.just(true)`) emits its element while it is subscribed, then
        // completes, so the subscription below would take its value and end at once. Taking
        // the value directly is the same, without the subscriber, its closure and the weak
        // reference to this action they need (3 allocations per action).
        //
        // `lastEnabledSent` is set without `updateEnabled()`: no `enabled` subject can exist
        // before `init` returns, so there is nothing to send to.
        guard let enabledIf = enabledIfSource else {
            enabledIfValue = true
            lastEnabledSent = isEnabled
            return
        }
        if let just = enabledIf as? JustObservable<Bool> {
            enabledIfValue = just.element
            lastEnabledSent = isEnabled
            return
        }
        // The subscriber itself rather than `subscribe(onNext:)`'s existential: whether it
        // already ended is then a property read, not a dynamic cast to `Cancelable`.
        let subscriber = ClosureSubscriber<Bool>(
            onNext: { [weak self] isEnabled in
                guard let self else { return }
                enabledIfValue = isEnabled
                updateEnabled()
            },
            onError: nil, onCompleted: nil, onDisposed: nil)
        subscriber.setUpstream(enabledIf.subscribe(erased: AnyObserver(eventHandler: subscriber.on)))
        // A source that already ended (the default `.just(true)`) needs no keeping.
        if subscriber.isDisposed { return }
        enabledIfSubscription = subscriber
    }

    deinit {
        enabledIfSubscription?.dispose()
        current?.workSubscription.dispose()
        // Tested here rather than through `lanes`: a `deinit` never specializes, so the
        // getter was a call (and its cast) for every action freed, most of which have no
        // rare subjects.
        if rareSubjects != nil { lanes?.disposeAll() }
    }

    /// Starts an execution for `input` now, and returns its observable: it replays all the
    /// execution's elements and its end to each subscriber. Disposing every subscription
    /// before the end cancels the execution (see the type's rules).
    @discardableResult @inlinable
    public func execute(_ input: Input) -> Observable<Element> {
        execute(input, onProgress: nil)
    }

    /// Starts an execution for `input` (or, for a `queue`, queues it), telling `onProgress`
    /// of its progress, and returns its observable (see ``execute(_:)``).
    ///
    /// `onProgress` is called on the graph's thread for each report of this execution's work,
    /// `completed` never decreasing, and never after the execution's observable ended.
    @discardableResult @inlinable
    public func execute(_ input: Input, onProgress: ((ActionProgress) -> Void)?) -> Observable<Element> {
        guard isEnabled else {
            errorsSubject?.on(.next(.notEnabled))
            return .error(ActionError.notEnabled)
        }
        let execution = Execution<Element>(onProgress: onProgress)
        let observable = Observable<Element>.make { [weak self, execution] observer in
            execution.subscriberCount += 1
            let subscription = execution.replay.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                execution.subscriberCount -= 1
                if execution.subscriberCount == 0, !execution.isFinished {
                    self?.cancel(execution)
                }
            }
        }
        if let lanes, let running = current {
            accept(execution, input: input, observable: observable, besides: running, in: lanes)
            return observable
        }
        current = execution
        lanes?.running.append(execution)
        executingSubject?.on(.next(true))
        updateEnabled()
        start(execution, input: input, observable: observable)
        return observable
    }

    /// Accepts `execution` while `running` runs, as the strategy says.
    @usableFromInline func accept(
        _ execution: Execution<Element>, input: Input, observable: Observable<Element>,
        besides running: Execution<Element>, in lanes: ActionLanes<Element>
    ) {
        switch lanes.strategy.kind {
        case .exclusive:
            // Refused by `isEnabled` before this point.
            return
        case .latest:
            // The new execution is current before the old one hears it was superseded, so
            // `executing` stays true and an execute from that observer supersedes this one.
            current = execution
            running.isFinished = true
            running.workSubscription.dispose()
            running.replay.on(.error(ActionError.superseded))
            guard !execution.isFinished else { return }
            start(execution, input: input, observable: observable)
        case .queue:
            execution.pendingStart = { [weak self, execution] in
                self?.start(execution, input: input, observable: observable)
            }
            lanes.waiting.append(execution)
            updateEnabled()
        case .concurrent:
            current = execution
            lanes.running.append(execution)
            updateEnabled()
            start(execution, input: input, observable: observable)
        }
    }

    /// Runs the work of an accepted execution.
    @inlinable func start(_ execution: Execution<Element>, input: Input, observable: Observable<Element>) {
        execution.pendingStart = nil
        if let executions = executionSubject { executions.on(.next(observable)) }
        let work: Observable<Element>
        switch self.work {
        case .plain(let factory):
            work = factory(input)
        case .reporting(let factory):
            work = factory(input, ActionProgressReporter { [weak self, execution] progress in
                self?.deliver(progress, of: execution)
            })
        }
        execution.workSubscription.setDisposable(work.subscribe(erased: AnyObserver { [weak self, execution] event in
            guard let self, !execution.isFinished else { return }
            switch event {
            case .next(let element):
                execution.replay.on(.next(element))
                elementsSubject.on(.next(element))
            case .error(let error):
                // Finished first, so a later event and a re-entrant dispose (from an `errors`
                // observer) are ignored; but still executing while `errors` is told, like
                // `elements` is told of an element before the end.
                execution.isFinished = true
                let failure = ActionError.underlyingError(error)
                errorsSubject?.on(.next(failure))
                finish(execution)
                execution.replay.on(.error(failure))
                startQueued()
            case .completed:
                finish(execution)
                execution.replay.on(.completed)
                startQueued()
            }
        }))
    }

    /// Passes a report of `execution`'s work on, unless the execution ended.
    @usableFromInline func deliver(_ reported: ActionProgress, of execution: Execution<Element>) {
        guard !execution.isFinished else { return }
        var progress = reported
        if progress.completed < execution.lastCompleted { progress.completed = execution.lastCompleted }
        execution.lastCompleted = progress.completed
        execution.onProgress?(progress)
        if let subject = rareSubjects?.progress { subject.on(.next(progress)) }
    }

    @inlinable func cancel(_ execution: Execution<Element>) {
        finish(execution)
        execution.replay.on(.completed)
        startQueued()
    }

    /// Starts the queued execution that became current when the previous one finished, once
    /// that one's observable has ended (so their replies keep their order).
    @inlinable func startQueued() {
        guard let next = current, let start = next.pendingStart else { return }
        start()
    }

    /// Ends `execution`: it no longer counts as running, and it lets go of its work.
    ///
    /// Releasing the work's subscription is what frees a finished execution: that
    /// subscription holds the observer `execute` gave the work, and that observer holds the
    /// execution, so until the subscription is released the two keep each other alive, with
    /// everything the execution replays (every completed async execution leaked, a
    /// history read by `reload` with it). After a terminal event the work has already ended,
    /// so disposing it only drops the reference; on a cancel it also cancels the work.
    @inlinable func finish(_ execution: Execution<Element>) {
        execution.isFinished = true
        execution.workSubscription.dispose()
        if let lanes {
            finish(execution, in: lanes)
            return
        }
        guard current === execution else { return }
        current = nil
        executingSubject?.on(.next(false))
        updateEnabled()
    }

    /// ``finish(_:)`` for a strategy other than `exclusive`.
    @usableFromInline func finish(_ execution: Execution<Element>, in lanes: ActionLanes<Element>) {
        execution.pendingStart = nil
        let wasExecuting = current != nil
        switch lanes.strategy.kind {
        case .exclusive, .latest:
            break
        case .queue:
            if current === execution, !lanes.waiting.isEmpty {
                // The next one becomes current at once (still executing; nothing can jump the
                // queue) and starts after this one's observable ended (`startQueued`).
                current = lanes.waiting.removeFirst()
                updateEnabled()
                return
            }
            lanes.waiting.removeAll { $0 === execution }
        case .concurrent:
            lanes.running.removeAll { $0 === execution }
            if current === execution { current = lanes.running.last }
        }
        if current === execution { current = nil }
        if wasExecuting, current == nil { executingSubject?.on(.next(false)) }
        updateEnabled()
    }

    @inlinable func updateEnabled() {
        let isEnabled = self.isEnabled
        if lastEnabledSent != isEnabled {
            lastEnabledSent = isEnabled
            if let enabled = rareSubjects?.enabled { enabled.on(.next(isEnabled)) }
        }
    }
}

extension Action where Input: Sendable, Element: Sendable {
    /// An action whose work is a Swift `async` function (a service call).
    ///
    /// Each execution runs `work(input)` in a `Task`; its result hops back to the graph through
    /// `scheduler`'s ``SerialScheduler/enqueue(_:)`` and becomes the execution's single
    /// element (or its error). Disposing the execution cancels the task.
    public convenience init(
        enabledIf: Observable<Bool> = .just(true),
        scheduler: any SerialScheduler,
        work: @escaping @Sendable (Input) async throws -> Element
    ) {
        self.init(enabledIf: enabledIf) { input in
            Observable.fromAsync(scheduler: scheduler) { try await work(input) }
        }
    }

    /// An action whose work is a Swift `async` function reporting its progress, with
    /// `strategy`.
    ///
    /// Each execution runs `work(input, reporter)` in a `Task`; reports and the result hop
    /// back to the graph through `scheduler` in the order they were made, so every report made
    /// before `work` returns arrives before the result. Disposing (or superseding) the
    /// execution cancels the task; reports made afterwards are dropped.
    public convenience init(
        strategy: ActionStrategy = .exclusive,
        enabledIf: Observable<Bool> = .just(true),
        scheduler: any SerialScheduler,
        work: @escaping @Sendable (Input, AsyncProgressReporter) async throws -> Element
    ) {
        self.init(strategy: strategy, enabledIf: enabledIf) { input, reporter in
            let progress = AsyncProgressReporter(scheduler: scheduler, reporter: reporter)
            return Observable.fromAsync(scheduler: scheduler) { try await work(input, progress) }
        }
    }
}
