/// A unit of work started by an input, with RxSwiftCommunity Action's rules and
/// ReactiveSwift's fixes where Action misbehaves.
///
/// Rules (all tested):
/// - **One execution at a time.** ``execute(_:)`` while executing, or while ``enabledIf``'s
///   latest value is `false`, does not run the work: it emits ``ActionError/notEnabled`` on
///   ``errors`` and returns an observable failing with it.
/// - **Enabled starts `false`** until `enabledIf` emits. The default `enabledIf`
///   (`.just(true)`) emits while `init` subscribes to it, so a default action is enabled as soon
///   as it exists. ``enabled`` is `enabledIf && !executing`, replayed and distinct.
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

    @usableFromInline let workFactory: WorkFactory
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
    @exclusivity(unchecked) @usableFromInline var errorsSubject: PublishSubject<ActionError>?
    @exclusivity(unchecked) @usableFromInline var executingSubject: BehaviorSubject<Bool>?
    /// `enabled` and `executionObservables`, behind one reference (see ActionRareSubjects.swift).
    @exclusivity(unchecked) @usableFromInline var rareSubjects: ActionRareSubjects?
    /// The subscriber itself, not an existential: one word instead of five keeps the action
    /// in a smaller malloc size class.
    @exclusivity(unchecked) @usableFromInline var enabledIfSubscription: ClosureSubscriber<Bool>?
    @exclusivity(unchecked) @usableFromInline var current: Execution<Element>?
    @exclusivity(unchecked) @usableFromInline var enabledIfValue: Bool
    /// The last value sent to the `enabled` subject; the subject's own `value` lags behind while a
    /// re-entrant send is queued, so it cannot be used to decide whether to send.
    @exclusivity(unchecked) @usableFromInline var lastEnabledSent: Bool

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
    public var elements: Observable<Element> { elementsSubject.asObservable() }

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

    /// Whether an execution is running now.
    @inlinable public var isExecuting: Bool { current != nil }

    /// Whether `execute` would run the work now.
    @inlinable public var isEnabled: Bool { enabledIfValue && current == nil }

    /// An action running `workFactory(input)` for each execution, allowed while `enabledIf`'s
    /// latest value is `true`.
    @inlinable public convenience init(enabledIf: Observable<Bool> = .just(true), workFactory: @escaping WorkFactory) {
        self.init(enabledIfSource: enabledIf, workFactory: workFactory)
    }

    /// An action running `workFactory(input)` for each execution, allowed whenever it is not
    /// executing: the same as `init(enabledIf: .just(true), workFactory:)`, which is what a call
    /// without `enabledIf` picks, without making the `just` for each action.
    @inlinable public convenience init(workFactory: @escaping WorkFactory) {
        self.init(enabledIfSource: nil, workFactory: workFactory)
    }

    /// The initializer behind the public ones; a `nil` source is always `true`.
    @inlinable init(enabledIfSource: Observable<Bool>?, workFactory: @escaping WorkFactory) {
        self.workFactory = workFactory
        elementsSubject = PublishSubject()
        errorsSubject = nil
        executingSubject = nil
        rareSubjects = nil
        enabledIfSubscription = nil
        current = nil
        enabledIfValue = false
        lastEnabledSent = false
        // A `just` (the default `.just(true)`) emits its element while it is subscribed, then
        // completes, so the subscription below would take its value and end at once. Taking
        // the value directly is the same, without the subscriber, its closure and the weak
        // reference to this action they need (3 allocations per action).
        guard let enabledIf = enabledIfSource else {
            enabledIfValue = true
            updateEnabled()
            return
        }
        if let just = enabledIf as? JustObservable<Bool> {
            enabledIfValue = just.element
            updateEnabled()
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
    }

    /// Starts an execution for `input` now, and returns its observable: it replays all the
    /// execution's elements and its end to each subscriber. Disposing every subscription
    /// before the end cancels the execution (see the type's rules).
    @discardableResult @inlinable
    public func execute(_ input: Input) -> Observable<Element> {
        guard isEnabled else {
            errorsSubject?.on(.next(.notEnabled))
            return .error(ActionError.notEnabled)
        }
        let execution = Execution<Element>()
        current = execution
        executingSubject?.on(.next(true))
        updateEnabled()
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
        if let executions = executionSubject { executions.on(.next(observable)) }
        let work = workFactory(input)
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
            case .completed:
                finish(execution)
                execution.replay.on(.completed)
            }
        }))
        return observable
    }

    @inlinable func cancel(_ execution: Execution<Element>) {
        finish(execution)
        execution.replay.on(.completed)
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
        guard current === execution else { return }
        current = nil
        executingSubject?.on(.next(false))
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

/// One run of an action's work.
@usableFromInline final class Execution<Element> {
    @usableFromInline let replay = ReplaySubject<Element>.createUnbounded()
    @usableFromInline let workSubscription = SingleAssignmentDisposable()
    @usableFromInline var subscriberCount = 0
    @usableFromInline var isFinished = false

    @inlinable init() {}
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
}
