import ReactiveCore
import ReactiveTesting
import Testing

@Suite("merge of a list of sources")
struct MergeTests {
    let scheduler = TestScheduler()

    @Test("merge fails with the first error and unsubscribes from every source at once")
    func firstErrorEndsEverything() {
        let a = scheduler.createHotObservable([.next(210, 1), .error(230, TestError()), .next(240, 9)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(250, 3), .completed(260)])
        let observer = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .error(230, TestError())])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test("sources that complete while being subscribed do not end the merge before the last one")
    func synchronousSourcesCompleteAfterTheLast() {
        let late = scheduler.createHotObservable([.next(210, 3), .completed(220)])
        let observer = scheduler.start {
            Observable.merge([.just(1), .just(2), late.asObservable()])
        }
        #expect(observer.events == [.next(200, 1), .next(200, 2), .next(210, 3), .completed(220)])
    }

    @Test("merge of only finished sources completes once they all did, in order")
    func finishedSourcesComplete() {
        let observer = scheduler.start { Observable<Int>.merge([.just(1), .empty(), .just(2)]) }
        #expect(observer.events == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test("merge of no sources completes at once")
    func noSources() {
        let observer = scheduler.start { Observable<Int>.merge([]) }
        #expect(observer.events == [.completed(200)])
    }

    @Test("disposing a merge unsubscribes from every source that is still running")
    func disposeUnsubscribesAll() {
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 2), .next(1100, 3)])
        let observer = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(observer.events == [.next(210, 1), .next(230, 2)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 1000)])
    }

    @Test("a merge frees its sources and what they capture once disposed or completed")
    func mergeFreesItsSources() {
        let subject = PublishSubject<Int>()
        weak var weakCanary: Canary?
        var subscription: (any Disposable)?
        do {
            let canary = Canary()
            weakCanary = canary
            subscription = Observable.merge(subject.map { $0 + canary.value }, .just(1))
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
            _ = Observable.merge(subject.map { $0 + canary.value }, .empty())
                .subscribe(onNext: { _ in canary.value += 1 })
        }
        #expect(weakCanary != nil)
        subject.onCompleted()
        #expect(weakCanary == nil)
    }

    @Test("a merge written with one to five sources delivers each one's elements and completes after the last")
    func everyNumberOfListedSources() {
        // Two to four listed sources are held without an array (SmallMergeObservable.swift):
        // the events must be those of the list form.
        for count in 1...5 {
            let scheduler = TestScheduler()
            let sources = (1...count).map { index in
                scheduler.createHotObservable([.next(200 + 10 * index, index), .completed(260 + index)]).asObservable()
            }
            let observer = scheduler.start { Self.listed(sources) }
            #expect(observer.events == (1...count).map { .next(200 + 10 * $0, $0) } + [.completed(260 + count)],
                    "\(count) sources")
        }
    }

    /// `merge` called with the sources written one by one (not as an array), one to five.
    static func listed(_ sources: [Observable<Int>]) -> Observable<Int> {
        switch sources.count {
        case 1: .merge(sources[0])
        case 2: .merge(sources[0], sources[1])
        case 3: .merge(sources[0], sources[1], sources[2])
        case 4: .merge(sources[0], sources[1], sources[2], sources[3])
        default: .merge(sources[0], sources[1], sources[2], sources[3], sources[4])
        }
    }

    @Test("a listed source that fails while being subscribed leaves the later ones unsubscribed")
    func failureWhileSubscribingStopsTheRest() {
        for count in 3...5 {
            let later = scheduler.createHotObservable([.next(210, 9)])
            let first: [Observable<Int>] = [.just(1), .error(TestError())]
            let rest = Array(repeating: later.asObservable(), count: count - 2)
            let merge = Self.listed(first + rest)
            var events: [Event<Int>] = []
            _ = merge.subscribe(AnyObserver { events.append($0) })
            #expect(events.count == 2, "\(count) sources")
            #expect(events.first == .next(1), "\(count) sources")
            #expect(later.subscriptions.isEmpty, "\(count) sources")
        }
    }
}
