import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Single")
struct SingleTests {
    let scheduler = TestScheduler()

    @Test("asSingle emits the one element when the source completes")
    func oneElement() {
        let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let observer = scheduler.start { source.asSingle().asObservable() }
        #expect(observer.events == [.next(250, 1), .completed(250)])
    }

    @Test("asSingle fails at a second element and unsubscribes")
    func secondElementFails() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let observer = scheduler.start { source.asSingle().asObservable() }
        #expect(observer.events == [.error(220, SingleError.moreThanOneElement)])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("asSingle of an empty source fails with noElements")
    func emptyFails() {
        let source = scheduler.createHotObservable([.completed(250)]) as TestableObservable<Int>
        let observer = scheduler.start { source.asSingle().asObservable() }
        #expect(observer.events == [.error(250, SingleError.noElements)])
    }

    @Test("create delivers the first result only and disposes its resource after it")
    func createOneShot() {
        var disposed = 0
        let single = Single<Int>.create { deliver in
            let work = scheduler.scheduleAt(230) {
                deliver(.success(5))
                deliver(.success(6))
                deliver(.failure(TestError()))
            }
            return Disposables.create {
                disposed += 1
                work.dispose()
            }
        }
        let observer = scheduler.start { single.map { $0 * 10 }.asObservable() }
        #expect(observer.events == [.next(230, 50), .completed(230)])
        #expect(disposed == 1)
    }

    @Test("subscribe(onSuccess:onFailure:) hears the result; each subscription runs the single again")
    func subscribeClosures() {
        var runs = 0
        let single = Single<Int>.deferred {
            runs += 1
            return runs == 1 ? .just(runs) : .error(TestError())
        }
        var results: [String] = []
        _ = single.subscribe(onSuccess: { results.append("success \($0)") }, onFailure: { _ in results.append("failure") })
        _ = single.subscribe { result in results.append((try? result.get()).map { "result \($0)" } ?? "result failure") }
        #expect(results == ["success 1", "result failure"])
    }

    @Test("flatMap chains singles; catchAndReturn recovers")
    func chaining() {
        let source = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let observer = scheduler.start {
            source.asSingle()
                .flatMap { value -> Single<Int> in value > 1 ? .error(TestError()) : .just(value) }
                .catchAndReturn(-1)
                .asObservable()
        }
        #expect(observer.events == [.next(210, -1), .completed(210)])
    }
}
