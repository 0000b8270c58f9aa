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
/// Operators are built from closures: `Observable` is a final class holding the function
/// that subscribes an observer. Create one with ``Observable/create(_:)`` or the factories
/// (`just`, `empty`, `never`, `error`, `from`), then chain operators.
public final class Observable<Element>: ObservableType {
    @usableFromInline
    let subscribeHandler: (AnyObserver<Element>) -> any Disposable

    /// An observable whose subscription runs `subscribeHandler`. Internal: the handler must
    /// already enforce the grammar. Public code uses ``create(_:)``.
    @usableFromInline
    init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subscribeHandler(AnyObserver(observer))
    }

    /// Subscribes an already erased observer without re-wrapping it.
    @inlinable
    func subscribe(erased observer: AnyObserver<Element>) -> any Disposable {
        subscribeHandler(observer)
    }

    @inlinable public func asObservable() -> Observable<Element> { self }
}
