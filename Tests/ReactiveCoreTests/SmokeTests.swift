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
