import ReactiveCore
import ReactiveTesting
import Testing

/// A `map` merged is subscribed by one object doing both (MergeMapSource.swift); these pin the
/// events a map sink observed by a merge source delivered, whichever way it is built.
@Suite("merge of mapped sources")
struct MergeMapTests {
    let scheduler = TestScheduler()

    /// The observer a source created with `Observable.create` was given, to send to it from
    /// inside a transform (re-entrantly).
    final class ObserverBox {
        var observer: AnyObserver<Int>?
        var subscription: (any Disposable)?
        var disposals = 0
    }

    func source(_ box: ObserverBox) -> Observable<Int> {
        Observable.create { observer in
            box.observer = observer
            return Disposables.create { box.disposals += 1 }
        }
    }

    @Test("each mapped source's elements arrive transformed, and the merge completes after the last source")
    func transformsAndCompletes() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 3), .completed(250)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(300)])
        let observer = scheduler.start {
            Observable.merge(a.map { "a\($0)" }, b.map { "b\($0)" }, .just("c"))
        }
        #expect(observer.events == [
            .next(200, "c"), .next(210, "a1"), .next(220, "b2"), .next(240, "a3"), .completed(300),
        ])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 300)])
    }

    @Test("a source mapped twice applies both transforms, in order")
    func mapOfMap() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let observer = scheduler.start { Observable.merge(a.map { $0 + 1 }.map { $0 * 10 }) }
        #expect(observer.values == [20, 30])
        #expect(a.subscriptions == [Subscription(200, 1000)])
    }

    @Test("a transform that throws fails the merge at once and unsubscribes from every source")
    func throwingTransformFails() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, -1), .next(240, 5)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(250, 3)])
        let observer = scheduler.start {
            Observable.merge(
                a.map { value -> Int in
                    if value < 0 { throw TestError(code: value) }
                    return value
                },
                b.map { $0 * 10 })
        }
        #expect(observer.events == [.next(210, 1), .next(220, 20), .error(230, TestError(code: -1))])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test("a mapped source that fails unsubscribes itself before the merge's observer hears the error")
    func errorDisposesTheSourceFirst() {
        let box = ObserverBox()
        var disposalsWhenFailed = -1
        _ = Observable.merge(source(box).map { $0 }, .never())
            .subscribe(onError: { _ in disposalsWhenFailed = box.disposals })
        box.observer?.onError(TestError())
        #expect(disposalsWhenFailed == 1)
    }

    @Test("a mapped source that completes is unsubscribed before the next source's elements arrive")
    func completionDisposesTheSourceFirst() {
        let box = ObserverBox()
        let other = PublishSubject<Int>()
        var disposalsSeen: [Int] = []
        _ = Observable.merge(source(box).map { $0 }, other.asObservable())
            .subscribe(onNext: { _ in disposalsSeen.append(box.disposals) })
        box.observer?.onNext(1)
        box.observer?.onCompleted()
        other.onNext(2)
        #expect(disposalsSeen == [0, 1])
    }

    @Test("an element whose transform ends its own source re-entrantly is dropped, and the merge goes on")
    func transformEndingItsSourceDropsItsResult() {
        let box = ObserverBox()
        let other = PublishSubject<Int>()
        var events: [Event<Int>] = []
        _ = Observable.merge(
            source(box).map { value -> Int in
                if value == 2 { box.observer?.onCompleted() }
                return value
            },
            other.asObservable()
        ).subscribe(onNext: { events.append(.next($0)) }, onError: { events.append(.error($0)) },
                    onCompleted: { events.append(.completed) })
        box.observer?.onNext(1)
        box.observer?.onNext(2)
        other.onNext(3)
        #expect(events == [.next(1), .next(3)])
        other.onCompleted()
        #expect(events == [.next(1), .next(3), .completed])
    }

    @Test("an error thrown by a transform after it ended its own source is dropped, and the merge goes on")
    func transformEndingItsSourceDropsItsError() {
        let box = ObserverBox()
        let other = PublishSubject<Int>()
        var events: [Event<Int>] = []
        _ = Observable.merge(
            source(box).map { value -> Int in
                box.observer?.onCompleted()
                throw TestError(code: value)
            },
            other.asObservable()
        ).subscribe(onNext: { events.append(.next($0)) }, onError: { events.append(.error($0)) })
        box.observer?.onNext(7)
        other.onNext(3)
        #expect(events == [.next(3)])
        #expect(box.disposals == 1)
    }

    @Test("an error thrown by a transform after it disposed the merge is dropped")
    func transformDisposingTheMergeDropsItsError() {
        let box = ObserverBox()
        var events: [Event<Int>] = []
        box.subscription = Observable.merge(
            source(box).map { value -> Int in
                box.subscription?.dispose()
                throw TestError(code: value)
            },
            .never()
        ).subscribe(onNext: { events.append(.next($0)) }, onError: { events.append(.error($0)) })
        box.observer?.onNext(7)
        #expect(events.isEmpty)
        #expect(box.disposals == 1)
    }

    @Test("disposing a merge of mapped sources unsubscribes each source once")
    func disposeUnsubscribesEach() {
        let first = ObserverBox()
        let second = ObserverBox()
        let subscription = Observable.merge(source(first).map { $0 }, source(second).map { $0 })
            .subscribe()
        subscription.dispose()
        subscription.dispose()
        #expect(first.disposals == 1)
        #expect(second.disposals == 1)
        first.observer?.onNext(1)
    }

    @Test("a mapped subject in a merge delivers to the merge as its only observer, and releases it on dispose")
    func mappedSubjectReleasesItsObserver() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = Observable.merge(subject.map { $0 * 2 }).subscribe(onNext: { values.append($0) })
        subject.onNext(1)
        #expect(subject.hasObservers)
        subscription.dispose()
        subject.onNext(2)
        #expect(values == [2])
        #expect(!subject.hasObservers)
    }

    @Test("disposing a merge unsubscribes its sources in subscription order, mapped or not")
    func disposalOrder() {
        let log = Log()
        func logged(_ name: String) -> Observable<Int> {
            Observable.create { _ in Disposables.create { log.append(name) } }
        }
        let subscription = Observable.merge(logged("a").map { $0 }, logged("b"), logged("c").map { $0 + 1 })
            .subscribe()
        subscription.dispose()
        #expect(log.entries == ["a", "b", "c"])
    }

    @Test("a merge of twenty thousand sources subscribes and unsubscribes each of them once")
    func manySources() {
        var subscribed = 0
        var disposed = 0
        let source = Observable<Int>.create { _ in
            subscribed += 1
            return Disposables.create { disposed += 1 }
        }
        let sources = (0..<20_000).map { index in index.isMultiple(of: 2) ? source.map { $0 } : source }
        let subscription = Observable.merge(sources).subscribe()
        subscription.dispose()
        #expect(subscribed == 20_000)
        #expect(disposed == 20_000)
    }
}
