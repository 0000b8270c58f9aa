import ReactiveCore
import ReactiveTesting
import Testing

/// Marble tests of the four execution strategies on virtual time: each work is a cold
/// observable emitting its input at +10 and completing at +30 (or later, when told).
@Suite("Action strategies")
struct ActionStrategyTests {
    let scheduler = TestScheduler()

    /// Work that emits `input` after 10 ticks and completes after `input` ticks (at least 30).
    private func work(_ input: Int) -> Observable<Int> {
        scheduler.createColdObservable([.next(10, input), .completed(max(30, input))]).asObservable()
    }

    @Test("exclusive is the default: a second execution while one runs is refused with notEnabled")
    func exclusiveRefusesASecondExecution() {
        let action = Action<Int, Int>(strategy: .exclusive) { work($0) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let executing = scheduler.createObserver(Bool.self)
        _ = action.executing.subscribe(executing)
        scheduler.scheduleAt(100) { _ = action.execute(1).subscribe(first) }
        scheduler.scheduleAt(110) { _ = action.execute(2).subscribe(second) }
        scheduler.start()
        #expect(Action<Int, Int> { .just($0) }.strategy == .exclusive)
        #expect(first.events == [.next(110, 1), .completed(130)])
        #expect(second.events == [.error(110, ActionError.notEnabled)])
        #expect(executing.events == [.next(0, false), .next(100, true), .next(130, false)])
    }

    @Test("latest: a new execution supersedes the running one, whose work is disposed, and executing stays true")
    func latestSupersedesTheRunningExecution() {
        var works: [TestableObservable<Int>] = []
        let action = Action<Int, Int>(strategy: .latest) { input in
            let made = scheduler.createColdObservable([.next(20, input), .completed(30)])
            works.append(made)
            return made.asObservable()
        }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let executing = scheduler.createObserver(Bool.self)
        let elements = scheduler.createObserver(Int.self)
        let errors = scheduler.createObserver(ActionError.self)
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.executing.subscribe(executing)
        _ = action.elements.subscribe(elements)
        _ = action.errors.subscribe(errors)
        _ = action.enabled.subscribe(enabled)
        scheduler.scheduleAt(100) { _ = action.execute(1).subscribe(first) }
        scheduler.scheduleAt(110) { _ = action.execute(2).subscribe(second) }
        scheduler.start()
        #expect(first.events == [.error(110, ActionError.superseded)])
        #expect(second.events == [.next(130, 2), .completed(140)])
        #expect(elements.events == [.next(130, 2)])
        #expect(executing.events == [.next(0, false), .next(100, true), .next(140, false)])
        #expect(errors.events.isEmpty)
        #expect(enabled.events == [.next(0, true)])
        #expect(works.map(\.subscriptions) == [[Subscription(100, 110)], [Subscription(110, 140)]])
    }

    @Test("latest: three quick executions leave only the last one's result")
    func latestKeepsOnlyTheLastOfABurst() {
        let action = Action<Int, Int>(strategy: .latest) { work($0) }
        let results = (0..<3).map { _ in scheduler.createObserver(Int.self) }
        for (index, result) in results.enumerated() {
            scheduler.scheduleAt(100 + 5 * TestTime(index)) { _ = action.execute(index).subscribe(result) }
        }
        scheduler.start()
        #expect(results[0].events == [.error(105, ActionError.superseded)])
        #expect(results[1].events == [.error(110, ActionError.superseded)])
        #expect(results[2].events == [.next(120, 2), .completed(140)])
    }

    @Test("latest: an execute from the superseded execution's observer supersedes the new one before it starts")
    func latestReentrantExecuteFromTheSupersededObserver() {
        var started: [Int] = []
        let action = Action<Int, Int>(strategy: .latest) { input in
            started.append(input)
            return work(input)
        }
        let third = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) {
            _ = action.execute(1).subscribe(onError: { _ in _ = action.execute(3).subscribe(third) })
        }
        scheduler.scheduleAt(110) { _ = action.execute(2).subscribe(second) }
        scheduler.start()
        #expect(started == [1, 3])
        #expect(second.events == [.error(110, ActionError.superseded)])
        #expect(third.events == [.next(120, 3), .completed(140)])
    }

    @Test("queue: executions run one after another in order, each starting when the previous ended")
    func queueRunsInOrder() {
        var works: [Int: TestableObservable<Int>] = [:]
        let action = Action<Int, Int>(strategy: .queue) { input in
            let made = scheduler.createColdObservable([.next(10, input), .completed(30)])
            works[input] = made
            return made.asObservable()
        }
        let observers = (1...3).map { _ in scheduler.createObserver(Int.self) }
        let executing = scheduler.createObserver(Bool.self)
        let elements = scheduler.createObserver(Int.self)
        _ = action.executing.subscribe(executing)
        _ = action.elements.subscribe(elements)
        scheduler.scheduleAt(100) { _ = action.execute(1).subscribe(observers[0]) }
        scheduler.scheduleAt(105) { _ = action.execute(2).subscribe(observers[1]) }
        scheduler.scheduleAt(110) { _ = action.execute(3).subscribe(observers[2]) }
        scheduler.start()
        #expect(observers[0].events == [.next(110, 1), .completed(130)])
        #expect(observers[1].events == [.next(140, 2), .completed(160)])
        #expect(observers[2].events == [.next(170, 3), .completed(190)])
        #expect(elements.values == [1, 2, 3])
        #expect(executing.events == [.next(0, false), .next(100, true), .next(190, false)])
        #expect(works[2]?.subscriptions == [Subscription(130, 160)])
    }

    @Test("queue: past its limit the action is not enabled and execute is refused")
    func queueRefusesPastItsLimit() {
        let action = Action<Int, Int>(strategy: .queue(limit: 1)) { work($0) }
        let refused = scheduler.createObserver(Int.self)
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.enabled.subscribe(enabled)
        scheduler.scheduleAt(100) { action.execute(1) }
        scheduler.scheduleAt(101) { action.execute(2) }
        scheduler.scheduleAt(102) { _ = action.execute(3).subscribe(refused) }
        scheduler.start()
        #expect(refused.events == [.error(102, ActionError.notEnabled)])
        #expect(enabled.events == [.next(0, true), .next(101, false), .next(130, true)])
        #expect(ActionStrategy.queue.limit == ActionStrategy.defaultQueueLimit)
    }

    @Test("queue: disposing a queued execution before it starts removes it, and the next one runs")
    func queueDisposedWaitingExecutionNeverRuns() {
        var started: [Int] = []
        let action = Action<Int, Int>(strategy: .queue) { input in
            started.append(input)
            return work(input)
        }
        let third = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { action.execute(1) }
        scheduler.scheduleAt(101) {
            let waiting = action.execute(2).subscribe(onNext: { _ in })
            _ = scheduler.scheduleAt(110) { waiting.dispose() }
        }
        scheduler.scheduleAt(102) { _ = action.execute(3).subscribe(third) }
        scheduler.start()
        #expect(started == [1, 3])
        #expect(third.events == [.next(140, 3), .completed(160)])
    }

    @Test("concurrent: executions run at once, up to the limit, and executing ends with the last")
    func concurrentRunsTogether() {
        let action = Action<Int, Int>(strategy: .concurrent(limit: 2)) { work($0) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        let executing = scheduler.createObserver(Bool.self)
        _ = action.executing.subscribe(executing)
        scheduler.scheduleAt(100) { _ = action.execute(40).subscribe(first) }
        scheduler.scheduleAt(105) { _ = action.execute(2).subscribe(second) }
        scheduler.scheduleAt(106) { _ = action.execute(3).subscribe(third) }
        scheduler.start()
        #expect(first.events == [.next(110, 40), .completed(140)])
        #expect(second.events == [.next(115, 2), .completed(135)])
        #expect(third.events == [.error(106, ActionError.notEnabled)])
        #expect(executing.events == [.next(0, false), .next(100, true), .next(140, false)])
    }

    @Test("every strategy lets accepted executions finish when enabledIf turns false, and refuses new ones")
    func enabledIfGatesNewExecutionsOnly() {
        for strategy in [ActionStrategy.latest, .queue, .concurrent] {
            let enabledIf = BehaviorRelay(value: true)
            let action = Action<Int, Int>(strategy: strategy, enabledIf: enabledIf.asObservable()) { work($0) }
            let first = scheduler.createObserver(Int.self)
            let refused = scheduler.createObserver(Int.self)
            _ = action.execute(1).subscribe(first)
            enabledIf.accept(false)
            _ = action.execute(2).subscribe(refused)
            scheduler.advance(by: .milliseconds(40))
            #expect(first.values == [1], "\(strategy)")
            #expect(first.didComplete, "\(strategy)")
            #expect(refused.values.isEmpty && refused.error != nil, "\(strategy)")
        }
    }

    @Test("an action released with running and queued executions disposes their work")
    func releasedActionDisposesEveryExecution() {
        let running = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        do {
            let action = Action<Int, Int>(strategy: .concurrent) { _ in running.asObservable() }
            scheduler.scheduleAt(100) { action.execute(1) }
            scheduler.scheduleAt(101) { action.execute(2) }
            scheduler.advance(to: 102)
        }
        #expect(running.subscriptions == [Subscription(100, 102), Subscription(101, 102)])
    }
}
