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
///   the elements follow; at the end ``executing`` becomes `false` (the action is enabled again)
///   *before* the execution's observable completes or fails, so a subscriber reacting to the
///   end may execute again.
///
/// Single-threaded like the rest of the graph (see ``Observable``); async work hops back
/// through a ``SerialScheduler``.
public final class Action<Input, Element> {
    /// Creates the work observable for one input.
    public typealias WorkFactory = (Input) -> Observable<Element>

    private let workFactory: WorkFactory
    private let elementsSubject = PublishSubject<Element>()
    private let errorsSubject = PublishSubject<ActionError>()
    private let executionsSubject = PublishSubject<Observable<Element>>()
    private let executingSubject = BehaviorSubject(value: false)
    private let enabledSubject = BehaviorSubject(value: false)
    private var enabledIfSubscription: (any Disposable)?
    private var current: Execution<Element>?
    private var enabledIfValue = false
    /// The last value sent to `enabledSubject`; the subject's own `value` lags behind while a
    /// re-entrant send is queued, so it cannot be used to decide whether to send.
    private var lastEnabledSent = false

    /// Executes the action for each element received; the executions run to their end.
    /// Terminal events are ignored.
    public private(set) var inputs: AnyObserver<Input> = AnyObserver { _ in }

    /// The elements of every execution.
    public var elements: Observable<Element> { elementsSubject.asObservable() }

    /// Not-enabled refusals and the work's errors.
    public var errors: Observable<ActionError> { errorsSubject.asObservable() }

    /// Whether an execution is running; replays the current value, then changes only.
    public var executing: Observable<Bool> { executingSubject.asObservable() }

    /// Whether `execute` would run the work; replays the current value, then changes only.
    public var enabled: Observable<Bool> { enabledSubject.asObservable() }

    /// Each execution's observable, as it starts (each replays its execution).
    public var executionObservables: Observable<Observable<Element>> { executionsSubject.asObservable() }

    /// Whether an execution is running now.
    public var isExecuting: Bool { current != nil }

    /// Whether `execute` would run the work now.
    public var isEnabled: Bool { enabledIfValue && current == nil }

    /// An action running `workFactory(input)` for each execution, allowed while `enabledIf`'s
    /// latest value is `true`.
    public init(enabledIf: Observable<Bool> = .just(true), workFactory: @escaping WorkFactory) {
        self.workFactory = workFactory
        inputs = AnyObserver { [weak self] event in
            if case .next(let input) = event { _ = self?.execute(input) }
        }
        enabledIfSubscription = enabledIf.subscribe(onNext: { [weak self] isEnabled in
            guard let self else { return }
            enabledIfValue = isEnabled
            updateEnabled()
        })
    }

    deinit {
        enabledIfSubscription?.dispose()
        current?.workSubscription.dispose()
    }

    /// Starts an execution for `input` now, and returns its observable: it replays all the
    /// execution's elements and its end to each subscriber. Disposing every subscription
    /// before the end cancels the execution (see the type's rules).
    @discardableResult
    public func execute(_ input: Input) -> Observable<Element> {
        guard isEnabled else {
            errorsSubject.on(.next(.notEnabled))
            return .error(ActionError.notEnabled)
        }
        let execution = Execution<Element>()
        current = execution
        executingSubject.on(.next(true))
        updateEnabled()
        let observable = Observable<Element> { [weak self, execution] observer in
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
        executionsSubject.on(.next(observable))
        let work = workFactory(input)
        execution.workSubscription.setDisposable(work.subscribe(erased: AnyObserver { [weak self, execution] event in
            guard let self, !execution.isFinished else { return }
            switch event {
            case .next(let element):
                execution.replay.on(.next(element))
                elementsSubject.on(.next(element))
            case .error(let error):
                finish(execution)
                errorsSubject.on(.next(.underlyingError(error)))
                execution.replay.on(.error(ActionError.underlyingError(error)))
            case .completed:
                finish(execution)
                execution.replay.on(.completed)
            }
        }))
        return observable
    }

    private func cancel(_ execution: Execution<Element>) {
        finish(execution)
        execution.workSubscription.dispose()
        execution.replay.on(.completed)
    }

    private func finish(_ execution: Execution<Element>) {
        execution.isFinished = true
        guard current === execution else { return }
        current = nil
        executingSubject.on(.next(false))
        updateEnabled()
    }

    private func updateEnabled() {
        let isEnabled = self.isEnabled
        if lastEnabledSent != isEnabled {
            lastEnabledSent = isEnabled
            enabledSubject.on(.next(isEnabled))
        }
    }
}

/// One run of an action's work.
final class Execution<Element> {
    let replay = ReplaySubject<Element>.createUnbounded()
    let workSubscription = SingleAssignmentDisposable()
    var subscriberCount = 0
    var isFinished = false
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
