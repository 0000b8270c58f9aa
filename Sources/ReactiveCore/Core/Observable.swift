/// A push-based sequence of events following RxSwift's semantics: `next* (error | completed)?`.
///
/// ## Threading contract
///
/// The reactive graph is **single-threaded by contract**, like RxSwift: one thread (in vmd,
/// the daemon's event-loop thread; in tests, the test's own task) owns every observable,
/// subject, relay, subscription, disposable and ``Action`` of a graph, and is the only one
/// that may subscribe, send events, dispose, or call a ``Scheduler``'s `schedule` methods.
/// "One thread" means *serialized*: calls may move between threads as long as each one
/// happens-after the previous (for example a test task resuming after an `await`). None of
/// these types is `Sendable`, and none takes a lock on the event path.
///
/// Exactly three things may be called from any thread:
/// - ``SerialScheduler/enqueue(_:)``, which queues a `@Sendable` job to run later on the
///   scheduler's own thread, in the order enqueued. Async work (``Observable/fromAsync(scheduler:_:)``,
///   the async ``Action`` initializer) hops its results back to the graph this way.
/// - Iterating an ``ObservableType/values`` stream, and cancelling that iteration.
/// - Cancelling a Swift `Task` the graph started (disposing the subscription does this for you).
///
/// Events are serialized by the grammar: an observer never receives two events at once.
/// Re-entrant events (an observer sending to the subject that is delivering to it) are
/// **trampolined**, not recursed: see ``PublishSubject``.
///
/// Create one with ``Observable/create(_:)`` or the factories (`just`, `empty`, `never`,
/// `error`, `from`), then chain operators.
///
/// ## Implementation
///
/// Each operator is an internal subclass holding its source and parameters as stored
/// properties: building a chain allocates one object per operator (a class holding a closure
/// cost two: the object and the closure's captures, `.ci/instructions`, `create`). The class is
/// public but not open, so only this module subclasses it.
///
/// A subclass does not override a method to subscribe: a class's methods are called through
/// its vtable, which holds the generic code compiled in this module, and every subscription
/// (with the sink it makes, whose methods carry every event) would then run unspecialized,
/// paying metadata lookups and witness calls. Instead each subclass stores `run`, a function
/// without captures created in its `@inlinable` initializer: in the module that names the
/// element types, that function is specialized, and storing it allocates nothing. The
/// methods are `final` for the same reason: a client module must not call them through the
/// vtable, or `subscribe` would run unspecialized.
public class Observable<Element>: ObservableType {
    /// Subscribes an observer to the observable given, which is always the one that stored
    /// the function (so a subclass's `run` may downcast it without checking).
    @usableFromInline typealias Run = (Observable<Element>, AnyObserver<Element>) -> any Disposable

    /// Subscribes the observable given (always the one that stored the function) as one
    /// source of a merge, with the merge source doing this observable's work itself; see
    /// `MergeSink.run` in Merge.swift.
    @usableFromInline typealias MergeRun = (Observable<Element>, MergeSink<Element>) -> Void

    @usableFromInline final let run: Run
    /// Set by the operators a merge fuses into its source (`map`): `nil` for the others.
    @usableFromInline final let mergeRun: MergeRun?
    /// Whether the subscription `run` returns is already disposed when a terminal event
    /// reaches the observer: true where it is a `Sink` (see `Sink.forwardTerminal`), false
    /// where `run` hands the observer on to something that may not (a foreign
    /// `ObservableType` seen through `asObservable()`). `startWith` relies on it.
    @usableFromInline final let endsItsSubscription: Bool

    /// An observable subscribing observers with `run`, and subscribing as a merge's source
    /// with `mergeRun` when given, which must deliver the same events as `run` would.
    /// Internal: `run` must already enforce the grammar. Public code uses ``create(_:)``.
    @inlinable init(run: @escaping Run, mergeRun: MergeRun? = nil, endsItsSubscription: Bool = false) {
        self.run = run
        self.mergeRun = mergeRun
        self.endsItsSubscription = endsItsSubscription
    }

    @inlinable public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        run(self, AnyObserver(observer))
    }

    /// Subscribes an already erased observer without re-wrapping it.
    @inlinable
    final func subscribe(erased observer: AnyObserver<Element>) -> any Disposable {
        run(self, observer)
    }

    @inlinable public final func asObservable() -> Observable<Element> { self }
}

extension Observable {
    /// An observable whose subscription runs `subscribeHandler`. Internal: the handler must
    /// already enforce the grammar. Public code uses ``create(_:)``.
    @inlinable static func make(_ subscribeHandler: @escaping (AnyObserver<Element>) -> any Disposable) -> Observable<Element> {
        ClosureObservable(subscribeHandler)
    }
}
