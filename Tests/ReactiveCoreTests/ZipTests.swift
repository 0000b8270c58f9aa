import ReactiveCore
import ReactiveTesting
import Testing

@Suite("zip")
struct ZipTests {
    let scheduler = TestScheduler()

    @Test("zip pairs elements by position, queueing the faster source")
    func pairsByPosition() {
        let left = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let right = scheduler.createHotObservable([.next(250, "a"), .next(260, "b"), .completed(270)])
        let observer = scheduler.start { Observable.zip(left, right) { "\($0)\($1)" } }
        #expect(observer.events == [.next(250, "1a"), .next(260, "2b"), .completed(270)])
        #expect(left.subscriptions == [Subscription(200, 240)])
        #expect(right.subscriptions == [Subscription(200, 270)])
    }

    @Test("zip completes only once every source completed, as RxSwift's does")
    func completesWhenAllComplete() {
        let empty = scheduler.createHotObservable([.completed(210)]) as TestableObservable<Int>
        let other = scheduler.createHotObservable([.next(215, 2), .completed(220)])
        let observer = scheduler.start { Observable.zip(empty, other) { $0 + $1 } }
        #expect(observer.events == [.completed(220)])
        #expect(empty.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(200, 220)])
    }

    @Test("zip fails with the first error and unsubscribes from every source")
    func firstError() {
        let left = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let right = scheduler.createHotObservable([.next(230, 2)])
        let observer = scheduler.start { Observable.zip(left, right) }
        #expect(observer.events.count == 1)
        #expect(observer.error as? TestError == TestError())
        #expect(right.subscriptions == [Subscription(200, 220)])
    }

    @Test("a throwing result selector fails the zip")
    func throwingSelector() {
        let left = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let right = scheduler.createHotObservable([.next(220, 10), .next(240, 20)])
        let observer = scheduler.start {
            Observable.zip(left, right) { a, b -> Int in
                if a == 2 { throw TestError() }
                return a + b
            }
        }
        #expect(observer.events == [.next(220, 11), .error(240, TestError())])
    }

    @Test("zip of an array emits arrays, and of no sources emits an empty array")
    func arrays() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(230, 3), .completed(310)])
        let c = scheduler.createHotObservable([.next(240, 4), .next(250, 5), .completed(320)])
        let observer = scheduler.start { Observable.zip([a, b, c]) }
        #expect(observer.events == [.next(240, [1, 3, 4]), .completed(320)])
        let second = TestScheduler()
        let none = second.start { Observable<[Int]>.zip([Observable<Int>]()) }
        #expect(none.events == [.next(200, []), .completed(200)])
    }
}
