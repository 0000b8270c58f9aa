import ReactiveCore
import Testing

/// A value-type disposable that counts its disposals in a shared counter.
private struct CountingDisposable: Disposable {
    let counter: DisposeCounter

    func dispose() { counter.count += 1 }
}

/// A class disposable defined outside ReactiveCore, counting its disposals.
private final class ForeignDisposable: Disposable {
    var count = 0

    func dispose() { count += 1 }
}

/// The counter a `CountingDisposable` writes to.
private final class DisposeCounter {
    var count = 0
}

@Suite("Value-type disposables held by subscriptions")
struct ValueDisposableTests {
    @Test("a ReactiveCore disposable is its own DisposableBase and other disposables have none")
    func disposableBaseForm() {
        let object = BooleanDisposable()
        #expect(object._disposableObject === object)
        let subscription = PublishSubject<Int>().map { $0 }.subscribe(onNext: { _ in })
        #expect(subscription._disposableObject != nil)
        #expect(CountingDisposable(counter: DisposeCounter())._disposableObject == nil)
        #expect(ForeignDisposable()._disposableObject == nil)
    }

    @Test("a class disposable of another module behind map and subscribe is disposed exactly once")
    func foreignClassSubscriptionDisposedOnce() {
        let foreign = ForeignDisposable()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return foreign
        }
        var received: [Int] = []
        let subscription = Observable.merge(source.map { $0 * 10 })
            .subscribe(onNext: { received.append($0) })
        #expect(foreign.count == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(foreign.count == 1)
        #expect(received == [10])
    }

    @Test("a value-type subscription behind map, merge and subscribe is disposed exactly once")
    func valueSubscriptionDisposedOnce() {
        let counter = DisposeCounter()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return CountingDisposable(counter: counter)
        }
        var received: [Int] = []
        let subscription = Observable.merge(source.map { $0 + 1 }, source)
            .subscribe(onNext: { received.append($0) })
        #expect(counter.count == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(counter.count == 2)
        #expect(received == [2, 1])
    }

    @Test("a value-type subscription of a source that already ended is disposed at once")
    func valueSubscriptionOfEndedSource() {
        let counter = DisposeCounter()
        let source = Observable<Int>.create { observer in
            observer.onCompleted()
            return CountingDisposable(counter: counter)
        }
        var completed = false
        _ = source.map { $0 }.subscribe(onCompleted: { completed = true })
        #expect(completed)
        #expect(counter.count == 1)
    }
}
