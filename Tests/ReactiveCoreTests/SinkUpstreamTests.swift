import ReactiveCore
import ReactiveTesting
import Testing

/// A sink's upstream subscription arrives only after the source's `subscribe` returned, and
/// until then a shared placeholder stands in for it (Sink.swift); a chain that ends or is
/// disposed before that must still dispose each real subscription exactly once.
@Suite("Sinks ended before their upstream subscription arrives")
struct SinkUpstreamTests {
    @Test("a source that completes while being subscribed is disposed once, when its subscription is handed back")
    func completesWhileSubscribing() {
        var disposals = 0
        var events: [Event<Int>] = []
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create { disposals += 1 }
        }
        .map { $0 * 2 }
        .scan(0) { $0 + $1 }
        .subscribe(onNext: { events.append(.next($0)) }, onCompleted: { events.append(.completed) })
        #expect(events == [.next(2), .completed])
        #expect(disposals == 1)
        subscription.dispose()
        #expect(disposals == 1)
    }

    @Test("a chain ended downstream by its first element disposes the source once its subscription arrives")
    func endedDownstreamWhileSubscribing() {
        var disposals = 0
        var values: [Int] = []
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposals += 1 }
        }
        .map { $0 + 10 }
        .take(1)
        .subscribe(onNext: { values.append($0) })
        #expect(values == [11])
        #expect(disposals == 1)
        subscription.dispose()
        #expect(disposals == 1)
    }

    @Test("a live chain disposed twice disposes its source once, and forwards nothing after")
    func disposedTwice() {
        var disposals = 0
        var observer: AnyObserver<Int>?
        var values: [Int] = []
        let subscription = Observable<Int>.create { given in
            observer = given
            return Disposables.create { disposals += 1 }
        }
        .map { $0 }
        .distinctUntilChanged()
        .subscribe(onNext: { values.append($0) })
        observer?.onNext(1)
        subscription.dispose()
        subscription.dispose()
        observer?.onNext(2)
        #expect(values == [1])
        #expect(disposals == 1)
    }
}
