import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing

@Suite("Action")
struct ActionTests {
    let scheduler = TestScheduler()

    @Test("a default action is enabled as soon as it exists")
    func enabledStartsTrueByDefault() {
        let action = Action<Int, Int> { .just($0) }
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.enabled.subscribe(enabled)
        #expect(action.isEnabled)
        #expect(enabled.values == [true])
    }

    @Test("an action whose enabledIf is just(false) stays disabled, refuses execute and never runs its work")
    func enabledIfJustFalseStaysDisabled() {
        var runs = 0
        let action = Action<Int, Int>(enabledIf: .just(false)) { value in
            runs += 1
            return .just(value)
        }
        let enabled = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(ActionError.self)
        _ = action.enabled.subscribe(enabled)
        _ = action.errors.subscribe(errors)
        let result = scheduler.createObserver(Int.self)
        _ = action.execute(1).subscribe(result)
        #expect(!action.isEnabled)
        #expect(runs == 0)
        #expect(enabled.values == [false])
        #expect(errors.values == [.notEnabled])
        #expect(result.events == [.error(0, ActionError.notEnabled)])
    }

    @Test("an action whose enabledIf is just(true) is enabled at once and disabled only while executing")
    func enabledIfJustTrueFollowsExecuting() {
        let work = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let action = Action<Void, Int>(enabledIf: .just(true)) { work.asObservable() }
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.enabled.subscribe(enabled)
        scheduler.scheduleAt(100) { action.execute(()) }
        scheduler.start()
        #expect(enabled.events == [.next(0, true), .next(100, false), .next(120, true)])
    }

    @Test("enabled starts false until enabledIf emits, and execute is refused meanwhile")
    func enabledStartsFalseUntilEnabledIfEmits() {
        let enabledIf = PublishSubject<Bool>()
        let action = Action<Int, Int>(enabledIf: enabledIf.asObservable()) { .just($0) }
        let enabled = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(ActionError.self)
        _ = action.enabled.subscribe(enabled)
        _ = action.errors.subscribe(errors)
        let result = scheduler.createObserver(Int.self)
        _ = action.execute(1).subscribe(result)
        enabledIf.onNext(true)
        #expect(enabled.values == [false, true])
        #expect(errors.values == [.notEnabled])
        #expect(result.events == [.error(0, ActionError.notEnabled)])
    }

    @Test("enabled follows enabledIf and executing")
    func enabledFollowsEnabledIfAndExecuting() {
        let enabledIf = BehaviorRelay(value: true)
        let work = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let action = Action<Void, Int>(enabledIf: enabledIf.asObservable()) { work.asObservable() }
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.enabled.subscribe(enabled)
        scheduler.scheduleAt(100) { enabledIf.accept(false) }
        scheduler.scheduleAt(200) { enabledIf.accept(true) }
        scheduler.scheduleAt(300) { action.execute(()) }
        scheduler.start()
        #expect(enabled.events == [.next(0, true), .next(100, false), .next(200, true), .next(300, false), .next(320, true)])
    }

    @Test("executing is true during an execution, whose elements reach elements")
    func executingAndElements() {
        let work = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let action = Action<Int, String> { _ in work.asObservable() }
        let executing = scheduler.createObserver(Bool.self)
        let elements = scheduler.createObserver(String.self)
        _ = action.executing.subscribe(executing)
        _ = action.elements.subscribe(elements)
        scheduler.scheduleAt(100) { action.execute(1) }
        scheduler.start()
        #expect(executing.events == [.next(0, false), .next(100, true), .next(130, false)])
        #expect(elements.events == [.next(110, "a"), .next(120, "b")])
    }

    @Test("execute while executing fails with notEnabled and leaves the running execution alone")
    func oneExecutionAtATime() {
        let work = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let action = Action<Int, Int> { _ in work.asObservable() }
        let errors = scheduler.createObserver(ActionError.self)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        _ = action.errors.subscribe(errors)
        scheduler.scheduleAt(100) { _ = action.execute(1).subscribe(first) }
        scheduler.scheduleAt(120) { _ = action.execute(2).subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, 1), .completed(150)])
        #expect(second.events == [.error(120, ActionError.notEnabled)])
        #expect(errors.events == [.next(120, .notEnabled)])
        #expect(work.subscriptions.count == 1)
    }

    @Test("every element of synchronous work reaches elements and the execution's observable")
    func synchronousMultiElementWork() {
        let action = Action<Int, Int> { count in Observable.from(1...count) }
        let elements = scheduler.createObserver(Int.self)
        _ = action.elements.subscribe(elements)
        let execution = action.execute(3)
        #expect(elements.values == [1, 2, 3])
        #expect(!action.isExecuting)
        let late = scheduler.createObserver(Int.self)
        _ = execution.subscribe(late)
        #expect(late.events == [.next(0, 1), .next(0, 2), .next(0, 3), .completed(0)])
    }

    @Test("work errors reach errors as underlyingError and fail the execution")
    func underlyingError() {
        let action = Action<Int, Int> { _ in .error(TestError(code: 7)) }
        let errors = scheduler.createObserver(ActionError.self)
        _ = action.errors.subscribe(errors)
        let result = scheduler.createObserver(Int.self)
        _ = action.execute(1).subscribe(result)
        #expect(errors.values == [.underlyingError(TestError(code: 7))])
        #expect(result.events == [.error(0, ActionError.underlyingError(TestError(code: 7)))])
        #expect(action.isEnabled)
    }

    @Test("a failure reaches errors while still executing, then executing ends, then the execution fails")
    func failureOrder() {
        let work = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(code: 5))])
        let action = Action<Int, Int> { _ in work.asObservable() }
        let executing = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(ActionError.self)
        let result = scheduler.createObserver(Int.self)
        let log = Log()
        _ = action.executing.subscribe(executing)
        _ = action.errors.subscribe(errors)
        _ = action.executing.subscribe(onNext: { log.append("executing \($0)") })
        _ = action.errors.subscribe(onNext: { _ in log.append("errors (executing \(action.isExecuting))") })
        scheduler.scheduleAt(100) {
            _ = action.execute(1).subscribe(
                onNext: { log.append("next \($0)") },
                onError: { _ in log.append("failed (enabled \(action.isEnabled))") })
            _ = action.execute(1).subscribe(result)
        }
        scheduler.start()
        let failure = ActionError.underlyingError(TestError(code: 5))
        #expect(executing.events == [.next(0, false), .next(100, true), .next(120, false)])
        #expect(errors.events == [.next(100, .notEnabled), .next(120, failure)])
        #expect(log.entries == [
            "executing false", "executing true", "errors (executing true)", "next 1",
            "errors (executing true)", "executing false", "failed (enabled true)",
        ])
        #expect(result.events == [.error(100, ActionError.notEnabled)])
    }

    @Test("the action is enabled again before the execution's failure is delivered")
    func reExecuteOnFailure() {
        var failures = 0
        let action = Action<Int, Int> { _ in
            failures += 1
            return .error(TestError(code: failures))
        }
        let second = scheduler.createObserver(Int.self)
        _ = action.execute(1).subscribe(onError: { _ in _ = action.execute(2).subscribe(second) })
        #expect(failures == 2)
        #expect(second.events == [.error(0, ActionError.underlyingError(TestError(code: 2)))])
    }

    @Test("observables read after an execution started begin from the action's current state")
    func lateObserversSeeCurrentState() {
        let work = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let action = Action<Int, Int> { _ in work.asObservable() }
        let executing = scheduler.createObserver(Bool.self)
        let enabled = scheduler.createObserver(Bool.self)
        scheduler.scheduleAt(100) { action.execute(1) }
        scheduler.scheduleAt(105) {
            _ = action.executing.subscribe(executing)
            _ = action.enabled.subscribe(enabled)
        }
        scheduler.start()
        #expect(executing.events == [.next(105, true), .next(120, false)])
        #expect(enabled.events == [.next(105, false), .next(120, true)])
    }

    @Test("disposing the execution cancels the work and re-enables the action at once")
    func disposingCancelsAndReEnables() {
        let work = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(200)])
        let action = Action<Int, Int> { _ in work.asObservable() }
        let elements = scheduler.createObserver(Int.self)
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.elements.subscribe(elements)
        _ = action.enabled.subscribe(enabled)
        var execution: (any Disposable)?
        scheduler.scheduleAt(100) { execution = action.execute(1).subscribe(onNext: { _ in }) }
        scheduler.scheduleAt(150) { execution?.dispose() }
        scheduler.start()
        #expect(work.subscriptions == [Subscription(100, 150)])
        #expect(elements.events == [.next(110, 1)])
        #expect(enabled.events == [.next(0, true), .next(100, false), .next(150, true)])
    }

    @Test("an execution runs on while one of two subscribers remains")
    func executionSurvivesWhileSubscribed() {
        let work = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let action = Action<Int, Int> { _ in work.asObservable() }
        let kept = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) {
            let execution = action.execute(1)
            let dropped = execution.subscribe(onNext: { _ in })
            _ = execution.subscribe(kept)
            dropped.dispose()
        }
        scheduler.start()
        #expect(kept.events == [.next(110, 1), .completed(120)])
    }

    @Test("the action is enabled again before the execution's completion is delivered")
    func reExecuteOnCompletion() {
        let action = Action<Int, Int> { .just($0) }
        var enabledAtCompletion: Bool?
        _ = action.execute(1).subscribe(onCompleted: { enabledAtCompletion = action.isEnabled })
        #expect(enabledAtCompletion == true)
    }

    @Test("inputs execute the action")
    func inputsExecute() {
        let action = Action<Int, Int> { .just($0 * 2) }
        let elements = scheduler.createObserver(Int.self)
        _ = action.elements.subscribe(elements)
        action.inputs.onNext(1)
        action.inputs.onNext(2)
        #expect(elements.values == [2, 4])
    }

    @Test("executionObservables emits each execution, replaying it")
    func executionObservables() {
        let action = Action<Int, Int> { .just($0) }
        var executions: [Observable<Int>] = []
        _ = action.executionObservables.subscribe(onNext: { executions.append($0) })
        action.execute(5)
        let observer = scheduler.createObserver(Int.self)
        _ = executions.first?.subscribe(observer)
        #expect(executions.count == 1)
        #expect(observer.values == [5])
    }

    @Test("async work's result hops back through the scheduler's enqueue")
    func asyncWork() async {
        let action = Action<Int, Int>(scheduler: scheduler) { input in input * 2 }
        let elements = scheduler.createObserver(Int.self)
        _ = action.elements.subscribe(elements)
        let result = scheduler.createObserver(Int.self)
        let subscription = action.execute(21).subscribe(result)
        #expect(action.isExecuting)
        #expect(elements.values.isEmpty)
        #expect(await scheduler.waitForEnqueued(count: 1))
        scheduler.drainEnqueued()
        #expect(elements.values == [42])
        #expect(result.events == [.next(0, 42), .completed(0)])
        #expect(!action.isExecuting)
        subscription.dispose()
    }

    @Test("async work errors arrive as underlyingError")
    func asyncWorkError() async {
        let action = Action<Int, Int>(scheduler: scheduler) { _ in throw TestError(code: 3) }
        let errors = scheduler.createObserver(ActionError.self)
        _ = action.errors.subscribe(errors)
        action.execute(1)
        #expect(await scheduler.waitForEnqueued(count: 1))
        scheduler.drainEnqueued()
        #expect(errors.values == [.underlyingError(TestError(code: 3))])
    }

    @Test("disposing an async execution cancels its Task, re-enables, and drops the late result")
    func asyncCancellation() async {
        let sawCancellation = Flag()
        let action = Action<Int, Int>(scheduler: scheduler) { input in
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                sawCancellation.set()
                throw error
            }
            return input
        }
        let elements = scheduler.createObserver(Int.self)
        let errors = scheduler.createObserver(ActionError.self)
        _ = action.elements.subscribe(elements)
        _ = action.errors.subscribe(errors)
        let execution = action.execute(1).subscribe(onNext: { _ in })
        #expect(!action.isEnabled)
        execution.dispose()
        #expect(action.isEnabled)
        // The cancelled task still posts its (cancellation) result; it must be dropped.
        #expect(await scheduler.waitForEnqueued(count: 1))
        scheduler.drainEnqueued()
        #expect(sawCancellation.isSet)
        #expect(elements.events.isEmpty)
        #expect(errors.events.isEmpty)
    }

    @Test("a released action releases its state")
    func actionIsReleased() {
        weak var weakAction: Action<Int, Int>?
        let enabledIf = BehaviorRelay(value: true)
        do {
            let action = Action<Int, Int>(enabledIf: enabledIf.asObservable()) { .just($0) }
            weakAction = action
            action.execute(1)
        }
        #expect(weakAction == nil)
        #expect(!enabledIf.hasObservers)
    }
}

/// A flag set from any thread (the async work) and read by the test.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
