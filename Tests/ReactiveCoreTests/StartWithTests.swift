import ReactiveCore
import ReactiveTesting
import Testing

/// `startWith` hands its elements to the observer during `subscribe`, then subscribes the
/// source with that observer when the source's subscription ends itself, and through a sink
/// otherwise (StartWith.swift); each test runs both ways: over a hot observable as it is
/// (`mapped` false) and behind a `map` (true).
@Suite("startWith")
struct StartWithTests {
    let scheduler = TestScheduler()

    func upstream(_ source: TestableObservable<Int>, mapped: Bool) -> Observable<Int> {
        mapped ? source.map { $0 } : source.asObservable()
    }

    @Test("an observer that ends at the first element gets nothing more, and the source is let go at once",
          arguments: [false, true])
    func endingAtTheFirstElement(mapped: Bool) {
        let source = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let observer = scheduler.start { upstream(source, mapped: mapped).startWith(1, 2).take(1) }
        #expect(observer.events == [.next(200, 1), .completed(200)])
        #expect(source.subscriptions == [Subscription(200, 200)])
    }

    @Test("the source's error follows the elements, and ends its subscription", arguments: [false, true])
    func sourceError(mapped: Bool) {
        let source = scheduler.createHotObservable([.next(210, 3), .error(220, TestError()), .next(230, 4)])
        let observer = scheduler.start { upstream(source, mapped: mapped).startWith(1) }
        #expect(observer.events == [.next(200, 1), .next(210, 3), .error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("the source's completion follows the elements, and ends its subscription", arguments: [false, true])
    func sourceCompletion(mapped: Bool) {
        let source = scheduler.createHotObservable([.next(210, 3), .completed(220)])
        let observer = scheduler.start { upstream(source, mapped: mapped).startWith(1).startWith(0) }
        #expect(observer.events == [.next(200, 0), .next(200, 1), .next(210, 3), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("disposing the subscription unsubscribes from the source", arguments: [false, true])
    func disposal(mapped: Bool) {
        let source = scheduler.createHotObservable([.next(210, 3), .next(1100, 4)])
        let observer = scheduler.start { upstream(source, mapped: mapped).startWith(1).startWith(0) }
        #expect(observer.events == [.next(200, 0), .next(200, 1), .next(210, 3)])
        #expect(source.subscriptions == [Subscription(200, 1000)])
    }

    @Test("the source's subscription is disposed before the observer hears the end", arguments: [false, true])
    func endDisposesFirst(mapped: Bool) {
        var disposals = 0
        var sink: AnyObserver<Int>?
        let created = Observable<Int>.create { observer in
            sink = observer
            return Disposables.create { disposals += 1 }
        }
        var disposalsAtEnd = -1
        let subscription = (mapped ? created.map { $0 } : created).startWith(0)
            .subscribe(onCompleted: { disposalsAtEnd = disposals })
        sink?.onCompleted()
        subscription.dispose()
        #expect(disposalsAtEnd == 1)
        #expect(disposals == 1)
    }

    @Test("each subscription gets the elements again", arguments: [false, true])
    func everySubscriptionStartsAgain(mapped: Bool) {
        let subject = PublishSubject<Int>()
        let chain = (mapped ? subject.map { $0 } : subject.asObservable()).startWith(1)
        var first: [Int] = []
        var second: [Int] = []
        let a = chain.subscribe(onNext: { first.append($0) })
        subject.onNext(2)
        let b = chain.subscribe(onNext: { second.append($0) })
        subject.onNext(3)
        a.dispose()
        b.dispose()
        subject.onNext(4)
        #expect(first == [1, 2, 3])
        #expect(second == [1, 3])
        #expect(!subject.hasObservers)
    }
}
