import JSONCore
import Posix
import Synchronization
import Testing
import VMServer
import VMTestSupport
@testable import VMTransport

/// The durable-instance store's file on its own: group commit, compaction, and what a
/// reopened store makes of what it finds.
@Suite("DurableInstanceStore: one write per commit, a bounded file, damage set aside")
struct DurableInstanceStoreTests {
    private static func counter(_ id: String, _ count: Int, parent: String? = nil) -> StoredInstance {
        StoredInstance(id: id, type: "Counter", args: [:], parent: parent, saved: ["count": ["version": 1, "value": .integer(Int64(count))]])
    }

    private static func entry(_ count: Int) -> JSONValue { ["version": 1, "value": .integer(Int64(count))] }

    /// The log lines a store wrote.
    final class CollectedLines: Sendable {
        let lines = Mutex<[String]>([])

        func contains(_ text: String) -> Bool {
            lines.withLock { $0.contains { $0.contains(text) } }
        }
    }

    /// A store in a fresh directory, its log lines collected.
    private static func withStore(_ body: (String, CollectedLines) throws -> Void) throws {
        let directory = try TemporarySocketDirectory()
        defer {
            directory.remove([
                "state/" + DurableInstanceStore.fileName, "state/" + DurableInstanceStore.fileName + ".tmp",
                "state/" + DurableInstanceStore.setAsideFileName, "state",
            ])
        }
        try body(directory.file("state"), CollectedLines())
    }

    private static func open(_ directory: String, _ collected: CollectedLines) throws -> DurableInstanceStore {
        try DurableInstanceStore(
            directory: directory, log: DaemonLog(threshold: .debug, write: { line in collected.lines.withLock { $0.append(line) } }))
    }

    @Test("nothing is written before the first commit, and a commit writes the turn's records in one append")
    func commitWritesOnce() throws {
        try Self.withStore { directory, lines in
            let store = try Self.open(directory, lines)
            var pendingCalls = 0
            store.onPending = { pendingCalls += 1 }
            store.created(Self.counter("a", 0))
            store.saved("a", key: "count", entry: Self.entry(1))
            #expect(pendingCalls == 1, "one end-of-turn commit scheduled per turn")
            #expect(try FileSystem.info(store.path) == nil, "nothing on disk before the commit")
            store.commit()
            #expect(!store.hasPending)
            store.saved("a", key: "count", entry: Self.entry(2))
            store.commit()
            #expect(pendingCalls == 2)
            let reopened = try Self.open(directory, lines)
            #expect(reopened.restorable() == [Self.counter("a", 2)])
        }
    }

    @Test("the file stays bounded: a compaction rewrites it as one record per live instance")
    func compactionBoundsTheFile() throws {
        try Self.withStore { directory, lines in
            let store = try Self.open(directory, lines)
            store.created(Self.counter("a", 0))
            store.commit()
            // ~75 bytes per record, 1,000 keys per commit: 40 commits write ~3 MB without compaction.
            for turn in 1...40 {
                for key in 0..<1000 { store.saved("a", key: "k\(key)", entry: Self.entry(turn)) }
                store.commit()
            }
            let size = try #require(try FileSystem.info(store.path)).size
            #expect(size <= DurableInstanceStore.compactionFloorBytes)
            let restored = try #require(try Self.open(directory, lines).restorable().first)
            #expect(restored.saved.underestimatedCount == 1001)
            #expect(restored.saved["k999"] == Self.entry(40))
        }
    }

    @Test("saves of one value in one turn are one record, holding the last value")
    func savesCoalesce() throws {
        try Self.withStore { directory, lines in
            let store = try Self.open(directory, lines)
            store.created(Self.counter("a", 0))
            store.commit()
            let before = try FileSystem.readFile(store.path).count
            for value in 1...1000 { store.saved("a", key: "count", entry: Self.entry(value)) }
            store.commit()
            let added = try FileSystem.readFile(store.path).dropFirst(before)
            #expect(added.filter { $0 == UInt8(ascii: "\n") }.count == 1)
            #expect(try Self.open(directory, lines).restorable() == [Self.counter("a", 1000)])
        }
    }

    @Test("a destroyed instance is not restored; parents stay before their children")
    func destroyedAndOrder() throws {
        try Self.withStore { directory, lines in
            let store = try Self.open(directory, lines)
            store.created(Self.counter("child", 1, parent: "parent"))
            store.created(Self.counter("parent", 2))
            store.created(Self.counter("gone", 3))
            store.destroyed("gone")
            store.commit()
            #expect(try Self.open(directory, lines).restorable().map(\.id) == ["child", "parent"])
        }
    }

    @Test("a gap in an instance's record numbers sets that instance aside; the others come back")
    func gapSetsAside() throws {
        try Self.withStore { directory, lines in
            let store = try Self.open(directory, lines)
            store.created(Self.counter("a", 0))
            store.created(Self.counter("b", 0))
            store.commit()
            store.saved("a", key: "count", entry: Self.entry(1))
            store.commit()
            store.saved("a", key: "count", entry: Self.entry(2))
            store.saved("b", key: "count", entry: Self.entry(5))
            store.commit()
            // Drop a's record n=2 (the save of 1) entirely: no damage shows, only the gap.
            let text = String(decoding: try FileSystem.readFile(store.path), as: UTF8.self)
            let kept = text.split(separator: "\n").filter { !($0.contains("\"id\":\"a\"") && $0.contains("\"n\":2")) }
            let file = try FileDescriptor.open(store.path, [.writeOnly, .truncate])
            try file.writeAll(Array((kept.joined(separator: "\n") + "\n").utf8))
            try file.close()

            let reopened = try Self.open(directory, lines)
            #expect(reopened.restorable() == [Self.counter("b", 5)])
            #expect(lines.contains("durable instance a: not restored: record 2 of its history is missing"))
        }
    }
}
