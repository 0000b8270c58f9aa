@testable import Posix
import VMTestSupport
import Testing

extension FileDescriptor {
    /// Writes through a borrowed number, then gives the number back without closing it.
    fileprivate func writeAndRelease(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        defer { _ = release() }
        guard case .bytes(let count) = try write(bytes) else { return 0 }
        return count
    }
}

@Suite("Durable file")
struct DurableFileTests {
    @Test("appended records read back in order, across reopening")
    func appendAndRead() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["store"]) }
        let path = directory.file("store")
        let file = try DurableFile(path: path)
        try file.append([UInt8]("one\n"))
        try file.append([UInt8]("two\n"))
        #expect(try file.readAll() == [UInt8]("one\ntwo\n"))
        #expect(try file.size == 8)
        try file.close()
        let reopened = try DurableFile(path: path)
        try reopened.append([UInt8]("three\n"))
        #expect(try reopened.readAll() == [UInt8]("one\ntwo\nthree\n"))
        #expect(try FileSystem.info(path)?.permissions == 0o600)
    }

    @Test("replace swaps the contents atomically and later appends follow the new contents")
    func replaceThenAppend() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["store", "store.tmp"]) }
        let file = try DurableFile(path: directory.file("store"))
        try file.append([UInt8]("old-1\nold-2\n"))
        try file.replace(with: [UInt8]("compacted\n"))
        #expect(try file.readAll() == [UInt8]("compacted\n"))
        try file.append([UInt8]("next\n"))
        #expect(try file.readAll() == [UInt8]("compacted\nnext\n"))
        #expect(try FileSystem.info(directory.file("store.tmp")) == nil)
    }

    @Test("a failed append throws an error naming the file and the errno")
    func failedAppendLeavesNothing() throws {
        // /dev/full accepts the open and fails every write with ENOSPC.
        let file = try DurableFile(path: "/dev/full")
        #expect(throws: SystemError.self) { try file.append([UInt8]("never")) }
        do {
            try file.append([UInt8]("never"))
        } catch let error as SystemError {
            #expect(error.description.hasPrefix("write(/dev/full): No space left on device (ENOSPC)"))
        }
    }

    @Test("a write that fails half-way through a record is rolled back to the previous length")
    func partialRecordRolledBack() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["store"]) }
        let file = try DurableFile(path: directory.file("store"))
        try file.append([UInt8]("kept\n"))
        var calls = 0
        #expect(throws: SystemError(call: "write(injected)", errno: SystemError.tooManyOpenFiles)) {
            try file.append([UInt8]("half-written record\n")) { fd, bytes in
                calls += 1
                if calls == 1 {
                    // Really write the first 4 bytes, as a short write on a nearly full disk would.
                    let head = try FileDescriptor(adopting: fd).writeAndRelease(UnsafeRawBufferPointer(rebasing: bytes[..<4]))
                    return head
                }
                throw SystemError(call: "write(injected)", errno: SystemError.tooManyOpenFiles)
            }
        }
        #expect(calls == 2)
        #expect(try file.readAll() == [UInt8]("kept\n"))
        try file.append([UInt8]("next\n"))
        #expect(try file.readAll() == [UInt8]("kept\nnext\n"))
    }

    @Test("many appends from many threads never interleave within a record")
    func concurrentAppends() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["store"]) }
        let file = try DurableFile(path: directory.file("store"))
        var threads: [PosixThread] = []
        for writer in 0..<4 {
            threads.append(try PosixThread.spawn {
                for index in 0..<25 {
                    try? file.append([UInt8]("\(writer)-\(index)-" + String(repeating: "x", count: 200) + "\n"))
                }
            })
        }
        for thread in threads { thread.join() }
        let lines = try file.readAll().split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 100)
        #expect(lines.allSatisfy { $0.count > 200 && $0.last == UInt8(ascii: "x") })
    }
}
