import ReactiveCore
import ReactiveTesting
import Testing

@Suite("flatMapFirst")
struct FlatMapFirstTests {
    let scheduler = TestScheduler()

    @Test("flatMapFirst ignores elements while an inner runs, and takes the next one after")
    func ignoresWhileBusy() {
        var selected: [Int] = []
        let inner = scheduler.createColdObservable([.next(10, "x"), .completed(30)])
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(300)])
        let observer = scheduler.start {
            source.flatMapFirst { value -> TestableObservable<String> in
                selected.append(value)
                return inner
            }
        }
        #expect(observer.events == [.next(220, "x"), .next(260, "x"), .completed(300)])
        #expect(selected == [1, 3])
        #expect(inner.subscriptions == [Subscription(210, 240), Subscription(250, 280)])
    }

    @Test("flatMapFirst completes once the source completed and the running inner too")
    func completesAfterInner() {
        let inner = scheduler.createColdObservable([.next(10, 7), .completed(50)])
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let observer = scheduler.start { source.flatMapFirst { _ in inner } }
        #expect(observer.events == [.next(220, 7), .completed(260)])
    }

    @Test("an inner error fails flatMapFirst and unsubscribes from the source")
    func innerError() {
        let inner = scheduler.createColdObservable([.error(10, TestError())]) as TestableObservable<Int>
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let observer = scheduler.start { source.flatMapFirst { _ in inner } }
        #expect(observer.events == [.error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }
}
