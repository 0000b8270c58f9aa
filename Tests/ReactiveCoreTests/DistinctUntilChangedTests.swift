import ReactiveCore
import ReactiveTesting
import Testing

/// `distinctUntilChanged()` of `Equatable` elements has its own sink (EquatableDistinct.swift);
/// each test runs it and the comparer form it replaces (`byEquality` true: `(==)`), which must
/// agree.
@Suite("distinctUntilChanged")
struct DistinctUntilChangedTests {
    let scheduler = TestScheduler()

    func distinct(_ source: some ObservableType<Int>, byEquality: Bool) -> Observable<Int> {
        byEquality ? source.distinctUntilChanged(==) : source.distinctUntilChanged()
    }

    @Test("the first element always passes, then only changes", arguments: [false, true])
    func changesOnly(byEquality: Bool) {
        let source = scheduler.createHotObservable([
            .next(210, 5), .next(220, 5), .next(230, 5), .next(240, 6), .next(250, 5), .completed(300),
        ])
        let observer = scheduler.start { distinct(source, byEquality: byEquality) }
        #expect(observer.events == [.next(210, 5), .next(240, 6), .next(250, 5), .completed(300)])
        #expect(source.subscriptions == [Subscription(200, 300)])
    }

    @Test("an error ends the sequence and the source's subscription", arguments: [false, true])
    func error(byEquality: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError()), .next(230, 2)])
        let observer = scheduler.start { distinct(source, byEquality: byEquality) }
        #expect(observer.events == [.next(210, 1), .error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("each subscription compares only its own elements", arguments: [false, true])
    func subscriptionsDoNotShare(byEquality: Bool) {
        let subject = PublishSubject<Int>()
        let chain = distinct(subject, byEquality: byEquality)
        var first: [Int] = []
        var second: [Int] = []
        let a = chain.subscribe(onNext: { first.append($0) })
        subject.onNext(1)
        let b = chain.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        a.dispose()
        b.dispose()
        subject.onNext(3)
        #expect(first == [1, 2])
        #expect(second == [1, 2])
        #expect(!subject.hasObservers)
    }

    @Test("an element sent re-entrantly by the observer is compared with the one being delivered",
          arguments: [false, true])
    func reentrantElement(byEquality: Bool) {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = distinct(subject, byEquality: byEquality).subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                subject.onNext(1)
                subject.onNext(2)
            }
        })
        subject.onNext(1)
        subscription.dispose()
        #expect(received == [1, 2])
    }
}
