import JSONCore
import ReactiveCore
import Testing
import ViewModelKit

@Suite("JSON observers of an output: one list, one order, disposal takes effect at once")
struct JSONObserverTests {
    @Test("several JSON observers see every value in the order they subscribed")
    func severalInOrder() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var seen: [String] = []
        let first = try counter.observe(output: "count") { seen.append("a\($0)") }
        let second = try counter.observe(output: "count") { seen.append("b\($0)") }
        try counter.send(input: "increment")
        try counter.send(input: "increment")
        #expect(seen == ["a1", "b1", "a2", "b2"])
        first.dispose()
        try counter.send(input: "increment")
        #expect(seen.suffix(1) == ["b3"])
        second.dispose()
    }

    @Test("an observer disposed by another during a delivery gets nothing more, not even that value")
    func disposedMidDelivery() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var seen: [String] = []
        var later: (any Disposable)?
        let first = try counter.observe(output: "count") { value in
            seen.append("a\(value)")
            later?.dispose()
        }
        later = try counter.observe(output: "count") { seen.append("b\($0)") }
        try counter.send(input: "increment")
        try counter.send(input: "increment")
        #expect(seen == ["a1", "a2"])
        first.dispose()
    }

    @Test("an observer added during a delivery sees the next value, not the current one")
    func addedMidDelivery() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var seen: [String] = []
        var added: (any Disposable)?
        let first = try counter.observe(output: "count") { value in
            seen.append("a\(value)")
            if added == nil { added = try? counter.observe(output: "count") { seen.append("b\($0)") } }
        }
        try counter.send(input: "increment")
        try counter.send(input: "increment")
        #expect(seen == ["a1", "a2", "b2"])
        first.dispose()
        added?.dispose()
    }

    @Test("once the instance is destroyed its observers hear nothing and new ones cannot attach")
    func afterDestroy() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var seen: [JSONValue] = []
        _ = try counter.observe(output: "count") { seen.append($0) }
        try counter.send(input: "increment")
        try host.destroy(counter.id)
        #expect(seen == [1])
        #expect(kitError { _ = try counter.observe(output: "count") { _ in } } == .unknownInstance(instance: counter.id))
    }
}
