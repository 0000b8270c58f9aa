import ReactiveCore
import ReactiveTesting
import Testing

@Suite("materialize and dematerialize")
struct MaterializeTests {
    let scheduler = TestScheduler()

    @Test("materialize turns every event into an element and completes after the terminal one")
    func materializeError() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let observer = scheduler.start { source.materialize() }
        #expect(observer.events == [.next(210, .next(1)), .next(220, .error(TestError())), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("materialize of a completed source emits the completion as an element")
    func materializeCompletion() {
        let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let observer = scheduler.start { source.materialize() }
        #expect(observer.events == [.next(210, .next(1)), .next(230, .completed), .completed(230)])
    }

    @Test("dematerialize turns event elements back into events and ends at an error element")
    func dematerialize() {
        let source = scheduler.createHotObservable([
            .next(210, Event<Int>.next(1)), .next(220, .error(TestError())), .next(230, .next(2)),
        ])
        let observer = scheduler.start { source.dematerialize() }
        #expect(observer.events == [.next(210, 1), .error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("materialize then dematerialize gives the source's events back")
    func roundTrip() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.start { source.materialize().dematerialize() }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(230)])
    }
}
