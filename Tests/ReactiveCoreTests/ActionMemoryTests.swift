import ReactiveCore
import ReactiveTesting
import Testing

/// An immutable class the async work returns or captures, whose lifetime the tests watch.
final class Payload: Sendable {
    let bytes: [UInt8]

    init(size: Int = 64) {
        bytes = [UInt8](repeating: 7, count: size)
    }
}

/// An error carrying a payload, to see that a failed execution frees what its error holds.
struct PayloadError: Error {
    let payload: Payload
}

/// Holds weak references to what one execution created, for the leak checks.
final class ExecutionWatch {
    weak var result: Payload?
    weak var captured: Payload?
    weak var work: Observable<Payload>?
}

/// A finished execution must not keep itself, its work or its values alive
/// while the action lives on (a view model's action lives as long as the instance).
@Suite("Action memory")
struct ActionMemoryTests {
    let scheduler = TestScheduler()

    /// An async action whose work captures a payload and returns (or throws) another one.
    private func makeAction(watch: ExecutionWatch, failing: Bool = false, waiting: Bool = false) -> Action<Int, Payload> {
        Action<Int, Payload> { [scheduler] _ in
            let captured = Payload()
            watch.captured = captured
            let work = Observable<Payload>.fromAsync(scheduler: scheduler) {
                if waiting { try await Task.sleep(for: .seconds(60)) }
                let result = Payload(size: captured.bytes.count)
                if failing { throw PayloadError(payload: result) }
                return result
            }
            watch.work = work
            return work
        }
    }

    @Test("a succeeded async execution frees its result, its work and what the work captured")
    func succeededExecutionIsFreed() async {
        let watch = ExecutionWatch()
        let action = makeAction(watch: watch)
        var received: [Int] = []
        do {
            let subscription = action.execute(1).subscribe(onNext: { payload in
                watch.result = payload
                received.append(payload.bytes.count)
            })
            #expect(await scheduler.waitForEnqueued(count: 1))
            scheduler.drainEnqueued()
            subscription.dispose()
        }
        #expect(received == [64])
        #expect(!action.isExecuting)
        #expect(watch.result == nil)
        #expect(watch.captured == nil)
        #expect(watch.work == nil)
        #expect(action.isEnabled)
    }

    @Test("a succeeded async execution nobody subscribed to frees its result")
    func unobservedExecutionIsFreed() async {
        weak var weakResult: Payload?
        let action = Action<Int, Payload>(scheduler: scheduler) { _ in Payload() }
        _ = action.elements.subscribe(onNext: { weakResult = $0 })
        action.execute(1)
        #expect(await scheduler.waitForEnqueued(count: 1))
        scheduler.drainEnqueued()
        #expect(!action.isExecuting)
        #expect(weakResult == nil)
    }

    @Test("a failed async execution frees its error's payload, its work and what the work captured")
    func failedExecutionIsFreed() async {
        let watch = ExecutionWatch()
        let action = makeAction(watch: watch, failing: true)
        var failures = 0
        _ = action.errors.subscribe(onNext: { error in
            if case .underlyingError(let underlying) = error, let failure = underlying as? PayloadError {
                watch.result = failure.payload
                failures += 1
            }
        })
        do {
            let subscription = action.execute(1).subscribe(onError: { _ in })
            #expect(await scheduler.waitForEnqueued(count: 1))
            scheduler.drainEnqueued()
            subscription.dispose()
        }
        #expect(failures == 1)
        #expect(watch.result == nil)
        #expect(watch.captured == nil)
        #expect(watch.work == nil)
        #expect(action.isEnabled)
    }

    @Test("a cancelled async execution frees its work and what the work captured once its task ends")
    func cancelledExecutionIsFreed() async {
        let watch = ExecutionWatch()
        let action = makeAction(watch: watch, waiting: true)
        do {
            let subscription = action.execute(1).subscribe(onNext: { _ in })
            subscription.dispose()
            // The cancelled task still posts its result; it is dropped, and then nothing is left.
            #expect(await scheduler.waitForEnqueued(count: 1))
            scheduler.drainEnqueued()
        }
        #expect(watch.captured == nil)
        #expect(watch.work == nil)
        #expect(action.isEnabled)
    }

    @Test("a thousand completed executions leave no result behind")
    func manyExecutionsLeaveNothing() {
        let work = PublishSubject<Payload>()
        let action = Action<Int, Payload> { _ in work.take(1) }
        let live = LiveCounter()
        for _ in 0..<1_000 {
            _ = action.execute(1)
            let payload = Payload()
            live.watch(payload)
            work.onNext(payload)
        }
        #expect(!action.isExecuting)
        #expect(live.count == 0)
    }
}

/// Counts how many of the watched objects are still alive.
final class LiveCounter {
    private var references: [() -> AnyObject?] = []

    func watch(_ object: AnyObject) {
        references.append { [weak object] in object }
    }

    var count: Int { references.reduce(0) { $0 + ($1() == nil ? 0 : 1) } }
}
