import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Smoke")
struct SmokeTests {
    @Test("a map filter chain delivers on virtual time")
    func chain() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300)])
        let observer = scheduler.start { source.map { $0 * 10 }.filter { $0 != 30 }.asObservable() }
        #expect(observer.events == [.next(210, 20), .next(230, 40), .completed(300)])
        #expect(source.subscriptions == [Subscription(200, 300)])
    }
}

@Suite("Action smoke")
struct ActionSmokeTests {
    struct Boom: Error, Equatable {}

    @Test("async work hops back through the test scheduler")
    func asyncWork() async throws {
        let scheduler = TestScheduler()
        let action = Action<Int, Int>(scheduler: scheduler) { input in input * 2 }
        let elements = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        action.elements.subscribe(elements).disposed(by: bag)
        let result = scheduler.createObserver(Int.self)
        action.execute(21).subscribe(result).disposed(by: bag)
        #expect(action.isExecuting)
        #expect(await scheduler.waitForEnqueued(count: 1))
        scheduler.drainEnqueued()
        #expect(elements.values == [42])
        #expect(result.events == [.next(0, 42), .completed(0)])
        #expect(!action.isExecuting)
    }
}
