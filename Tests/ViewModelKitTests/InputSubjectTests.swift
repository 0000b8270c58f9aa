import ReactiveCore
import Testing
import ViewModelKit

/// An input is its own subject (Internals/PortStorage/Input+Storage.swift): its observers see
/// what a `PublishSubject`'s would, alone, through `asObservable()`, and mapped into a merge
/// (where each mapped input's merge source is its own entry).
@Suite("An input delivers to its observers as a publish subject would")
struct InputSubjectTests {
    @Test("every observer sees each value in subscription order; a late one misses earlier values")
    func observersInOrder() {
        let input = Input<Int>("A value.")
        var seen: [String] = []
        let a = input.subscribe(onNext: { seen.append("a\($0)") })
        input.send(1)
        let b = input.asObservable().subscribe(onNext: { seen.append("b\($0)") })
        input.send(2)
        a.dispose()
        input.send(3)
        b.dispose()
        input.send(4)
        #expect(seen == ["a1", "a2", "b2", "b3"])
    }

    @Test("a value sent while one is delivered reaches every observer after the one delivered")
    func reentrantSend() {
        let input = Input<Int>("A value.")
        var seen: [String] = []
        let a = input.subscribe(onNext: { value in
            seen.append("a\(value)")
            if value == 1 { input.send(2) }
        })
        let b = input.subscribe(onNext: { seen.append("b\($0)") })
        input.send(1)
        a.dispose()
        b.dispose()
        #expect(seen == ["a1", "b1", "a2", "b2"])
    }

    @Test("mapped inputs merged deliver in order, and nothing once the merge is disposed")
    func mergedMaps() {
        let first = Input<Int>("A value.")
        let second = Input<Int>("Another.")
        var seen: [Int] = []
        let merged = Observable.merge(first.map { $0 * 10 }, second.map { -$0 }, first.asObservable().map { $0 + 100 })
        let subscription = merged.subscribe(onNext: { seen.append($0) })
        first.send(1)
        second.send(2)
        subscription.dispose()
        first.send(3)
        second.send(4)
        let again = merged.subscribe(onNext: { seen.append($0) })
        second.send(5)
        again.dispose()
        #expect(seen == [10, 101, -2, -5])
    }
}
