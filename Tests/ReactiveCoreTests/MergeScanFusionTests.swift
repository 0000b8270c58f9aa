import ReactiveCore
import ReactiveTesting
import Testing

/// A `scan` over a `merge` is one subscription object, the merge's and the scan's
/// (MergeScanSink.swift). Each test runs the chain over a merge of listed sources (two to four:
/// SmallMergeObservable.swift), over a merge of an array of them, and with a `map { $0 }`
/// between the merge and the scan, which keeps the two apart; all must emit exactly the same.
@Suite("scan fused with the merge it reads from")
struct MergeScanFusionTests {
    enum Route: CaseIterable {
        case listed, array, keptApart
    }

    let scheduler = TestScheduler()

    /// The sources merged as `route` says.
    func merged(_ sources: [Observable<Int>], route: Route) -> Observable<Int> {
        switch route {
        case .listed:
            switch sources.count {
            case 2: .merge(sources[0], sources[1])
            case 3: .merge(sources[0], sources[1], sources[2])
            default: .merge(sources[0], sources[1], sources[2], sources[3])
            }
        case .array: .merge(sources)
        case .keptApart: Observable.merge(sources).map { $0 }
        }
    }

    /// The running sum of the merged sources, with a view model's start and distinct on top.
    func sum(_ sources: [Observable<Int>], route: Route, seed: Int = 0, start: Int = 0) -> Observable<Int> {
        merged(sources, route: route).scan(seed) { total, step in total + step }.startWith(start).distinctUntilChanged()
    }

    @Test("elements of every source accumulate in the order they come; the start first, equal sums dropped",
          arguments: Route.allCases)
    func elements(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 0), .next(250, 2)])
        let b = scheduler.createHotObservable([.next(220, -1), .next(240, 5)])
        let c = scheduler.createHotObservable([.next(235, 0), .next(260, -7)])
        let observer = scheduler.start { sum([a.asObservable(), b.asObservable(), c.asObservable()], route: route) }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(220, 0), .next(240, 5), .next(250, 7), .next(260, 0)])
        #expect(a.subscriptions == [Subscription(200, 1000)])
        #expect(b.subscriptions == [Subscription(200, 1000)])
        #expect(c.subscriptions == [Subscription(200, 1000)])
    }

    @Test("a scan alone over the merge emits every sum, and nothing first", arguments: Route.allCases)
    func scanAlone(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 0)])
        let b = scheduler.createHotObservable([.next(220, 2)])
        let observer = scheduler.start {
            merged([a.asObservable(), b.asObservable()], route: route).scan(10) { total, step in total + step }
        }
        #expect(observer.events == [.next(210, 11), .next(220, 13), .next(230, 13)])
    }

    @Test("the sequence completes only once every source completed", arguments: Route.allCases)
    func completion(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 2), .completed(300), .next(310, 4)])
        let observer = scheduler.start { sum([a.asObservable(), b.asObservable()], route: route) }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(230, 3), .completed(300)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 300)])
    }

    @Test("an error from any source ends the sequence and unsubscribes every source first",
          arguments: Route.allCases, [0, 1, 3])
    func sourceError(route: Route, failing: Int) {
        let sources = (0..<4).map { index in
            scheduler.createHotObservable(
                index == failing
                    ? [.next(210, 1), .error(220, TestError(code: index)), .next(230, 5)]
                    : index == (failing + 1) % 4 ? [.next(215, 2), .next(230, 3)] : [.next(230, 3)])
        }
        var unsubscribedBeforeTheError = false
        let observer = scheduler.start {
            sum(sources.map { $0.asObservable() }, route: route).do(onError: { _ in
                unsubscribedBeforeTheError = sources.allSatisfy { $0.subscriptions == [Subscription(200, 220)] }
            })
        }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(215, 3), .error(220, TestError(code: failing))])
        #expect(unsubscribedBeforeTheError)
    }

    @Test("an accumulator that throws ends the sequence with its error and unsubscribes every source",
          arguments: Route.allCases)
    func accumulatorError(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let b = scheduler.createHotObservable([.next(215, 4), .next(240, 5)])
        let observer = scheduler.start {
            merged([a.asObservable(), b.asObservable()], route: route)
                .scan(0) { total, step in
                    if step == 2 { throw TestError() }
                    return total + step
                }
                .startWith(0).distinctUntilChanged()
        }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(215, 5), .error(220, TestError())])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 220)])
    }

    @Test("disposing mid-stream unsubscribes every source and emits nothing more", arguments: Route.allCases)
    func disposal(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let b = scheduler.createHotObservable([.next(220, 3), .completed(230)])
        let observer = scheduler.start { sum([a.asObservable(), b.asObservable()], route: route) }
        #expect(observer.events == [.next(200, 0), .next(210, 1), .next(220, 4)])
        #expect(a.subscriptions == [Subscription(200, 1000)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test("sources that complete while subscribed accumulate after the start; the last one ends it",
          arguments: Route.allCases)
    func sourcesEndingAtOnce(route: Route) {
        let late = scheduler.createHotObservable([.next(210, 3), .completed(220)])
        let observer = scheduler.start { sum([.just(1), .empty(), .just(1), late.asObservable()], route: route) }
        #expect(observer.events == [.next(200, 0), .next(200, 1), .next(200, 2), .next(210, 5), .completed(220)])
    }

    @Test("sources that all complete while subscribed end the sequence at once", arguments: Route.allCases)
    func allSourcesEndAtOnce(route: Route) {
        let observer = scheduler.start { sum([.just(2), .just(0)], route: route) }
        #expect(observer.events == [.next(200, 0), .next(200, 2), .completed(200)])
    }

    @Test("a source that fails while subscribed ends the sequence; later sources are never subscribed",
          arguments: Route.allCases)
    func sourceFailingAtOnce(route: Route) {
        let first = scheduler.createHotObservable([.next(210, 1)])
        let last = scheduler.createHotObservable([.next(210, 1)])
        let observer = scheduler.start {
            sum([first.asObservable(), .just(4), .error(TestError(code: 3)), last.asObservable()], route: route)
        }
        #expect(observer.events == [.next(200, 0), .next(200, 4), .error(200, TestError(code: 3))])
        #expect(first.subscriptions == [Subscription(200, 200)])
        #expect(last.subscriptions.isEmpty)
    }

    @Test("an observer that ends at the start lets every source go at once", arguments: Route.allCases)
    func endingAtTheStart(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 4)])
        let observer = scheduler.start { sum([a.asObservable(), b.asObservable()], route: route).take(1) }
        #expect(observer.events == [.next(200, 0), .completed(200)])
        #expect(a.subscriptions == [Subscription(200, 200)])
        #expect(b.subscriptions == [Subscription(200, 200)])
    }

    @Test("a start that differs from the seed: the first sum compares with the start", arguments: Route.allCases)
    func startIsNotTheSeed(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 0)])
        let b = scheduler.createHotObservable([.next(220, -10)])
        let observer = scheduler.start { sum([a.asObservable(), b.asObservable()], route: route, seed: 10, start: 11) }
        #expect(observer.events == [.next(200, 11), .next(220, 1)])
    }

    @Test("each subscription starts again from the start and the seed", arguments: Route.allCases)
    func everySubscriptionStartsAgain(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let chain = sum([a.map { $0 }, b.asObservable()], route: route)
        var first: [Int] = []
        var second: [Int] = []
        let one = chain.subscribe(onNext: { first.append($0) })
        a.onNext(2)
        let two = chain.subscribe(onNext: { second.append($0) })
        b.onNext(0)
        b.onNext(3)
        one.dispose()
        two.dispose()
        a.onNext(4)
        #expect(first == [0, 2, 5])
        #expect(second == [0, 3])
        #expect(!a.hasObservers)
        #expect(!b.hasObservers)
    }

    @Test("elements the observer sends re-entrantly to any source accumulate after the one being delivered",
          arguments: Route.allCases)
    func reentrantElements(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = sum([a.map { $0 }, b.map { $0 * 10 }], route: route).subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                b.onNext(1)
                a.onNext(1)
            }
        })
        a.onNext(1)
        subscription.dispose()
        #expect(received == [0, 1, 11, 12])
    }

    @Test("disposing from the observer drops every later element, also of other sources", arguments: Route.allCases)
    func disposedByTheObserver(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var subscription: (any Disposable)?
        var received: [Int] = []
        subscription = sum([a.map { $0 }, b.map { $0 }], route: route).subscribe(onNext: { value in
            received.append(value)
            if value == 3 {
                subscription?.dispose()
                b.onNext(5)
            }
        })
        a.onNext(3)
        b.onNext(1)
        #expect(received == [0, 3])
        #expect(!a.hasObservers)
        #expect(!b.hasObservers)
    }

    @Test("scan(into:) over a merge accumulates the same way", arguments: Route.allCases)
    func inPlaceAccumulator(route: Route) {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, 0), .completed(240)])
        let observer = scheduler.start {
            merged([a.asObservable(), b.asObservable()], route: route)
                .scan(into: [Int]()) { all, step in all.append(step) }
                .map(\.count)
        }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .next(230, 3)])
    }

    @Test("the chain frees its sources and what they capture once disposed or ended", arguments: Route.allCases)
    func freesItsSources(route: Route) {
        let subject = PublishSubject<Int>()
        weak var weakCanary: Canary?
        var subscription: (any Disposable)?
        do {
            let canary = Canary()
            weakCanary = canary
            subscription = sum([subject.map { $0 + canary.value }, .never()], route: route)
                .subscribe(onNext: { _ in canary.value += 1 })
        }
        subject.onNext(1)
        #expect(weakCanary?.value == 2)
        subscription?.dispose()
        subscription = nil
        #expect(weakCanary == nil)

        do {
            let canary = Canary()
            weakCanary = canary
            _ = sum([subject.map { $0 + canary.value }, .empty()], route: route)
                .subscribe(onNext: { _ in canary.value += 1 })
        }
        #expect(weakCanary != nil)
        subject.onCompleted()
        #expect(weakCanary == nil)
    }
}
