import ReactiveCore
import ReactiveTesting
import Testing

/// `startWith` and `distinctUntilChanged()` written right after a `scan` make one sink
/// (ScanFusing.swift). Each test runs the chain fused (`fused` true) and with a `map { $0 }`
/// after the scan, which keeps the three operators apart; both must emit exactly the same.
@Suite("scan fused with startWith and distinctUntilChanged")
struct ScanFusionTests {
    let scheduler = TestScheduler()

    /// The running sum of the source, as a view model keeps a state.
    func sum(_ source: some ObservableType<Int>, seed: Int = 0, fused: Bool) -> Observable<Int> {
        let scanned = source.scan(seed) { total, step in total + step }
        return fused ? scanned : scanned.map { $0 }
    }

    @Test("the start comes first, then only the sums that change it", arguments: [true, false])
    func changesOnly(fused: Bool) {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 0), .next(230, -1), .next(240, 0), .next(250, 2), .completed(300),
        ])
        let observer = scheduler.start { sum(source, fused: fused).startWith(0).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(230, 0), .next(250, 2), .completed(300)])
        #expect(source.subscriptions == [Subscription(200, 300)])
    }

    @Test("a first sum equal to the start is dropped", arguments: [true, false])
    func firstSumEqualToTheStart(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 1)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(1).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 1), .next(220, 2)])
    }

    @Test("the start and the seed are separate: the first sum adds to the seed", arguments: [true, false])
    func startIsNotTheSeed(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 0)])
        let observer = scheduler.start { sum(source, seed: 10, fused: fused).startWith(0).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 0), .next(210, 11)])
    }

    @Test("distinct alone after the scan: the first sum always passes", arguments: [true, false])
    func distinctWithoutStart(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 0), .next(220, 0), .next(230, 3)])
        let observer = scheduler.start { sum(source, fused: fused).distinctUntilChanged() }
        #expect(observer.events == [.next(210, 0), .next(230, 3)])
    }

    @Test("start alone after the scan: every sum passes", arguments: [true, false])
    func startWithoutDistinct(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 0), .next(220, 0)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(0) }
        #expect(observer.events == [.next(200, 0), .next(210, 0), .next(220, 0)])
    }

    @Test("a start after the distinct is not compared with the first sum", arguments: [true, false])
    func startAfterDistinct(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 5), .next(220, 5)])
        let observer = scheduler.start { sum(source, seed: 0, fused: fused).distinctUntilChanged().startWith(5) }
        #expect(observer.events == [.next(200, 5), .next(210, 5), .next(220, 10)])
    }

    @Test("two starts come out last written first, and the distinct sees both", arguments: [true, false])
    func twoStarts(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 1)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(1).startWith(2).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 2), .next(200, 1), .next(220, 2)])
    }

    @Test("an accumulator that throws ends the sequence with its error, and the source's subscription",
          arguments: [true, false])
    func accumulatorError(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let observer = scheduler.start {
            let scanned = source.scan(0) { total, step in
                if step == 2 { throw TestError() }
                return total + step
            }
            return (fused ? scanned : scanned.map { $0 }).startWith(0).distinctUntilChanged()
        }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("the source's error ends the sequence", arguments: [true, false])
    func sourceError(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError()), .next(230, 2)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(0).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .error(220, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("disposing mid-stream unsubscribes from the source and emits nothing more", arguments: [true, false])
    func disposal(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(0).distinctUntilChanged() }
        #expect(observer.events == [.next(200, 0), .next(210, 1)])
        #expect(source.subscriptions == [Subscription(200, 1000)])
    }

    @Test("an observer that ends at the start lets the source go at once", arguments: [true, false])
    func endingAtTheStart(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let observer = scheduler.start { sum(source, fused: fused).startWith(0).distinctUntilChanged().take(1) }
        #expect(observer.events == [.next(200, 0), .completed(200)])
        #expect(source.subscriptions == [Subscription(200, 200)])
    }

    @Test("each subscription starts again from the start and the seed", arguments: [true, false])
    func everySubscriptionStartsAgain(fused: Bool) {
        let subject = PublishSubject<Int>()
        let chain = sum(subject, fused: fused).startWith(0).distinctUntilChanged()
        var first: [Int] = []
        var second: [Int] = []
        let a = chain.subscribe(onNext: { first.append($0) })
        subject.onNext(2)
        let b = chain.subscribe(onNext: { second.append($0) })
        subject.onNext(0)
        subject.onNext(3)
        a.dispose()
        b.dispose()
        subject.onNext(4)
        #expect(first == [0, 2, 5])
        #expect(second == [0, 3])
        #expect(!subject.hasObservers)
    }

    @Test("an element the observer sends re-entrantly is accumulated after the one being delivered",
          arguments: [true, false])
    func reentrantElement(fused: Bool) {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = sum(subject, fused: fused).startWith(0).distinctUntilChanged().subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(0) }
            if value == 1 { subject.onNext(1) }
        })
        subject.onNext(1)
        subscription.dispose()
        #expect(received == [0, 1, 2])
    }

    @Test("scan(into:) fuses the same way", arguments: [true, false])
    func inPlaceAccumulator(fused: Bool) {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 0), .next(230, 2)])
        let observer = scheduler.start {
            let scanned = source.scan(into: 0) { total, step in total += step }
            return (fused ? scanned : scanned.map { $0 }).startWith(0).distinctUntilChanged()
        }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(230, 3)])
    }
    @Test("a scan kept in a variable emits as before after a startWith is written on it")
    func keptScanUnchangedByStart() {
        let subject = PublishSubject<Int>()
        let scanned = subject.scan(0) { total, step in total + step }
        let started = scanned.startWith(7)
        var plain: [Int] = []
        var withStart: [Int] = []
        let a = scanned.subscribe(onNext: { plain.append($0) })
        let b = started.subscribe(onNext: { withStart.append($0) })
        subject.onNext(0)
        subject.onNext(2)
        a.dispose()
        b.dispose()
        #expect(plain == [0, 2])
        #expect(withStart == [7, 0, 2])
    }

    @Test("a scan kept in a variable emits as before after a distinctUntilChanged is written on it")
    func keptScanUnchangedByDistinct() {
        let subject = PublishSubject<Int>()
        let started = subject.scan(0) { total, step in total + step }.startWith(0)
        let distinct = started.distinctUntilChanged()
        var plain: [Int] = []
        var distinctValues: [Int] = []
        let a = started.subscribe(onNext: { plain.append($0) })
        let b = distinct.subscribe(onNext: { distinctValues.append($0) })
        subject.onNext(0)
        subject.onNext(2)
        subject.onNext(0)
        a.dispose()
        b.dispose()
        #expect(plain == [0, 0, 2, 2])
        #expect(distinctValues == [0, 2])
    }

    @Test("a chain written in one expression fuses as a chain built step by step", arguments: [true, false])
    func oneExpressionAndStepByStep(oneExpression: Bool) {
        let source = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(230, 0), .next(240, 2)])
        let observer = scheduler.start { () -> Observable<Int> in
            if oneExpression {
                return source.scan(5) { total, step in total + step }.startWith(5).distinctUntilChanged()
            }
            let scanned = source.scan(5) { total, step in total + step }
            let started = scanned.startWith(5)
            let chain = started.distinctUntilChanged()
            _ = scanned.subscribe(onNext: { _ in }).dispose()
            _ = started.subscribe(onNext: { _ in }).dispose()
            return chain
        }
        #expect(observer.events == [.next(200, 5), .next(220, 6), .next(240, 8)])
    }
}
