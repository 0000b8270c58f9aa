import ReactiveCore
import Testing

/// A value-type disposable that counts its disposals in a shared counter.
private struct CountingDisposable: Disposable {
    let counter: DisposeCounter

    func dispose() { counter.count += 1 }
}

/// The counter a `CountingDisposable` writes to.
private final class DisposeCounter {
    var count = 0
}

@Suite("Value-type disposables held by subscriptions")
struct ValueDisposableTests {
    @Test("a class disposable is its own class-bound form and a value disposable has none")
    func classBoundForm() {
        let object = BooleanDisposable()
        #expect(object._disposableObject === object)
        #expect(CountingDisposable(counter: DisposeCounter())._disposableObject == nil)
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
