import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Operators on virtual time")
struct OperatorTests {
    let scheduler = TestScheduler()

    @Test("map transforms elements and a throwing transform fails the sequence")
    func mapAndThrowingMap() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start {
            source.map { value -> Int in
                if value == 3 { throw TestError() }
                return value * 10
            }
        }
        #expect(observer.events == [.next(210, 10), .next(220, 20), .error(230, TestError())])
        #expect(source.subscriptions == [Subscription(200, 230)])
    }

    @Test("filter and compactMap drop elements")
    func filterAndCompactMap() {
        let source = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "4"), .completed(300)])
        let observer = scheduler.start { source.compactMap { Int($0) }.filter { $0 > 1 } }
        #expect(observer.events == [.next(230, 4), .completed(300)])
    }

    @Test("scan emits the running accumulation from the seed")
    func scanAccumulates() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start { source.scan(100) { $0 + $1 } }
        #expect(observer.events == [.next(210, 101), .next(220, 103), .next(230, 106), .completed(300)])
    }

    @Test("distinctUntilChanged drops consecutive duplicates only")
    func distinctUntilChanged() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1), .completed(300),
        ])
        let observer = scheduler.start { source.distinctUntilChanged() }
        #expect(observer.events == [.next(210, 1), .next(230, 2), .next(250, 1), .completed(300)])
    }

    @Test("distinctUntilChanged by key compares keys")
    func distinctByKey() {
        let source = scheduler.createHotObservable([.next(210, "a1"), .next(220, "a2"), .next(230, "b1"), .completed(300)])
        let observer = scheduler.start { source.distinctUntilChanged { $0.first } }
        #expect(observer.values == ["a1", "b1"])
    }

    @Test("startWith emits its elements at subscription, before the source")
    func startWith() {
        let source = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let observer = scheduler.start { source.startWith(1, 2) }
        #expect(observer.events == [.next(200, 1), .next(200, 2), .next(210, 3), .completed(300)])
    }

    @Test("combineLatest waits for both, then emits on every change")
    func combineLatest() {
        let left = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(400)])
        let right = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(500)])
        let observer = scheduler.start { Observable.combineLatest(left, right) { "\($0)\($1)" } }
        #expect(observer.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(500)])
    }

    @Test("combineLatest fails with the first error and unsubscribes from every source")
    func combineLatestError() {
        let left = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
        let right = scheduler.createHotObservable([.next(220, 2), .next(300, 3)])
        let observer = scheduler.start { Observable.combineLatest(left, right) { $0 + $1 } }
        #expect(observer.events == [.next(220, 3), .error(250, TestError())])
        #expect(right.subscriptions == [Subscription(200, 250)])
    }

    @Test("combineLatest over an array emits arrays")
    func combineLatestArray() {
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(310)])
        let c = scheduler.createHotObservable([.next(230, 3), .next(240, 4), .completed(320)])
        let observer = scheduler.start { Observable.combineLatest([a, b, c]) }
        #expect(observer.events == [.next(230, [1, 2, 3]), .next(240, [1, 2, 4]), .completed(320)])
    }

    @Test("combineLatest of no sources emits an empty array, then completes")
    func combineLatestOfNothing() {
        let observer = scheduler.start { Observable<[Int]>.combineLatest([Observable<Int>]()) }
        #expect(observer.events == [.next(200, []), .completed(200)])
    }

    @Test("withLatestFrom pairs each element with the latest of the other, dropping early ones")
    func withLatestFrom() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let other = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
        let observer = scheduler.start { source.withLatestFrom(other) { "\($0)\($1)" } }
        #expect(observer.events == [.next(230, "2a"), .next(250, "3b"), .completed(300)])
        // The other is released when it completes (RxSwift's withLatestFrom does the same).
        #expect(other.subscriptions == [Subscription(200, 245)])
    }

    @Test("withLatestFrom sees a value the other replays on subscription")
    func withLatestFromReplayed() {
        let state = BehaviorRelay(value: "s")
        let source = scheduler.createHotObservable([.next(210, 1)])
        let observer = scheduler.start { source.withLatestFrom(state) }
        #expect(observer.values == ["s"])
    }

    @Test("flatMap merges every inner and completes after all of them")
    func flatMapMerges() {
        let inner1 = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(40)])
        let inner2 = scheduler.createColdObservable([.next(10, "b1"), .completed(50)])
        let source = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(230)])
        let observer = scheduler.start { source.flatMap { $0 == 1 ? inner1 : inner2 } }
        #expect(observer.events == [.next(220, "a1"), .next(235, "b1"), .next(240, "a2"), .completed(275)])
    }

    @Test("flatMapLatest disposes the previous inner when a new element arrives")
    func flatMapLatestSwitches() {
        let inner1 = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(100)])
        let inner2 = scheduler.createColdObservable([.next(10, "b1"), .next(20, "b2"), .completed(30)])
        let source = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(300)])
        let observer = scheduler.start { source.flatMapLatest { $0 == 1 ? inner1 : inner2 } }
        #expect(observer.events == [.next(220, "a1"), .next(235, "b1"), .next(245, "b2"), .completed(300)])
        #expect(inner1.subscriptions == [Subscription(210, 225)])
        #expect(inner2.subscriptions == [Subscription(225, 255)])
    }

    @Test("flatMapLatest completes only once the latest inner completed")
    func flatMapLatestCompletion() {
        let inner = scheduler.createColdObservable([.next(50, 1), .completed(100)])
        let source = scheduler.createHotObservable([.next(210, 0), .completed(220)])
        let observer = scheduler.start { source.flatMapLatest { _ in inner } }
        #expect(observer.events == [.next(260, 1), .completed(310)])
    }

    @Test("concatMap runs inners one after the other")
    func concatMapSerializes() {
        let inner1 = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let inner2 = scheduler.createColdObservable([.next(5, "b"), .completed(10)])
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(216)])
        let observer = scheduler.start { source.concatMap { $0 == 1 ? inner1 : inner2 } }
        #expect(observer.events == [.next(220, "a"), .next(235, "b"), .completed(240)])
        #expect(inner2.subscriptions == [Subscription(230, 240)])
    }

    @Test("concatMap calls its selector when the element arrives, so a throwing selector fails at once")
    func concatMapSelectsOnArrival() {
        let inner = scheduler.createColdObservable([.next(10, "a"), .completed(100)])
        let source = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(400)])
        let observer = scheduler.start {
            source.concatMap { value -> TestableObservable<String> in
                if value == 2 { throw TestError() }
                return inner
            }
        }
        #expect(observer.events == [.next(220, "a"), .error(225, TestError())])
        #expect(inner.subscriptions == [Subscription(210, 225)])
    }

    @Test("concatMap's selector reads state when the element arrives, not when its turn comes")
    func concatMapReadsStateOnArrival() {
        var formValue = "draft"
        let running = scheduler.createColdObservable([.completed(100)]) as TestableObservable<String>
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(400)])
        scheduler.scheduleAt(230) { formValue = "edited" }
        let observer = scheduler.start {
            source.concatMap { value -> Observable<String> in
                value == 1 ? running.asObservable() : .just(formValue)
            }
        }
        #expect(observer.events == [.next(310, "draft"), .completed(400)])
    }

    @Test("concatMap over a never-ending inner still fails when a later selector throws")
    func concatMapSelectorErrorBehindNever() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let observer = scheduler.start {
            source.concatMap { value -> Observable<Int> in
                if value == 2 { throw TestError() }
                return .never()
            }
        }
        #expect(observer.events == [.error(220, TestError())])
    }

    @Test("merge forwards both sources and completes after both")
    func merge() {
        let a = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(260)])
        let observer = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(260)])
    }

    @Test("take completes after the count and unsubscribes from the source")
    func take() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let observer = scheduler.start { source.take(2) }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("skip drops the first elements")
    func skip() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let observer = scheduler.start { source.skip(2) }
        #expect(observer.events == [.next(230, 3), .completed(240)])
    }

    @Test("take(until:) completes when the trigger emits")
    func takeUntil() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let trigger = scheduler.createHotObservable([.next(220, ()), .completed(400)])
        let observer = scheduler.start { source.take(until: trigger) }
        #expect(observer.events == [.next(210, 1), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220)])
        #expect(trigger.subscriptions == [Subscription(200, 220)])
    }

    @Test("catch continues with the fallback; catchAndReturn emits one value")
    func catchOperators() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let fallback = scheduler.createColdObservable([.next(5, 9), .completed(10)])
        let observer = scheduler.start { source.catch { _ in fallback.asObservable() } }
        #expect(observer.events == [.next(210, 1), .next(225, 9), .completed(230)])
        let second = TestScheduler()
        let failing: TestableObservable<Int> = second.createHotObservable([.error(210, TestError())])
        let recovered = second.start { failing.catchAndReturn(0) }
        #expect(recovered.events == [.next(210, 0), .completed(210)])
    }

    @Test("retry resubscribes after an error, up to the attempt count")
    func retry() {
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let observer = scheduler.start { source.retry(3) }
        #expect(observer.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test("create enforces the grammar and disposes its resource on the terminal event")
    func createEnforcesGrammar() {
        var disposed = 0
        let observable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            return Disposables.create { disposed += 1 }
        }
        let observer = scheduler.createObserver(Int.self)
        let subscription = observable.subscribe(observer)
        #expect(observer.events == [.next(0, 1), .completed(0)])
        #expect(disposed == 1)
        subscription.dispose()
        #expect(disposed == 1)
    }

    @Test("do runs its effects before forwarding; onDispose comes after the downstream heard the end")
    func doSideEffectsOrder() {
        let log = Log()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create { log.append("upstream disposed") }
        }
        let subscription = source
            .do(onNext: { log.append("do next \($0)") }, onCompleted: { log.append("do completed") },
                onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
                onDispose: { log.append("do dispose") })
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
                       onDisposed: { log.append("disposed") })
        subscription.dispose()
        // RxSwift's order for a source that ends while being subscribed: the downstream hears
        // the completion, the upstream is released, then onSubscribed, then onDispose.
        #expect(log.entries == [
            "subscribe", "do next 1", "next 1", "do completed", "completed", "disposed", "upstream disposed",
            "subscribed", "do dispose",
        ])
    }

    @Test("a loading flag set in do(onSubscribed:) and cleared in do(onDispose:) ends false over just")
    func doLoadingFlagOverJust() {
        var isLoading = false
        let subscription = Observable.just(1)
            .do(onSubscribed: { isLoading = true }, onDispose: { isLoading = false })
            .subscribe()
        #expect(isLoading == false)
        subscription.dispose()
        #expect(isLoading == false)
    }

    @Test("do(onDispose:) runs after the downstream heard a later terminal event, and once")
    func doOnDisposeAfterLaterTerminal() {
        let log = Log()
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = source.asObservable()
                .do(onDispose: { log.append("do dispose \(observer.events.count)") })
                .subscribe(observer)
        }
        scheduler.start()
        #expect(observer.events == [.next(210, 1), .completed(220)])
        #expect(log.entries == ["do dispose 2"])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("create runs its cleanup before the downstream hears the terminal event (kept; see the porting guide)")
    func createCleanupBeforeTerminal() {
        let log = Log()
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let created = Observable<Int>.create { observer in
            let subscription = source.subscribe(observer)
            return Disposables.create {
                log.append("cleanup")
                subscription.dispose()
            }
        }
        scheduler.scheduleAt(200) {
            _ = created.subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        }
        scheduler.start()
        #expect(log.entries == ["cleanup", "completed", "disposed"])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("from, of, just, empty and error produce their documented events")
    func factories() {
        let observer = scheduler.createObserver(Int.self)
        _ = Observable.from([1, 2]).subscribe(observer)
        _ = Observable.of(3).subscribe(observer)
        _ = Observable<Int>.empty().subscribe(observer)
        _ = Observable<Int>.error(TestError()).subscribe(observer)
        #expect(observer.events == [
            .next(0, 1), .next(0, 2), .completed(0), .next(0, 3), .completed(0), .completed(0), .error(0, TestError()),
        ])
    }
}
