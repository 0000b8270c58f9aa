import Posix
import Testing
@testable import VMTransport

@Suite("A connection's outbound queue: pooled chunks, written in place, sent in order")
struct OutboundQueueTests {
    /// A connected pair of Unix sockets: `daemonSide` (nonblocking, as the daemon's) and
    /// `peer` (blocking, with a receive timeout).
    final class SocketPair {
        let directory: String
        let daemonSide: FileDescriptor
        let peer: FileDescriptor

        init() throws {
            directory = try FileSystem.makeTemporaryDirectory()
            let address = try UnixSocketAddress(path: directory + "/q.sock")
            let listener = try UnixListener.bind(to: address)
            peer = try UnixSocket.connect(to: address, timeout: .seconds(5))
            try UnixSocket.setTimeout(peer, receive: true, .seconds(5))
            daemonSide = try #require(try listener.accept())
            try listener.descriptor.close()
        }

        /// Reads exactly `count` bytes from the peer's side.
        func read(_ count: Int) throws -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while bytes.count < count {
                let wanted = min(buffer.count, count - bytes.count)
                let result = try buffer.withUnsafeMutableBytes { try peer.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted])) }
                guard case .bytes(let read) = result else { break }
                bytes += buffer[0..<read]
            }
            return bytes
        }

        deinit {
            try? daemonSide.close()
            try? peer.close()
            _ = try? FileSystem.remove(directory + "/q.sock")
            try? FileSystem.removeDirectory(directory)
        }
    }

    /// `count` bytes cycling through 0...250.
    static func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8((start + $0) % 251) }
    }

    @Test("bytes appended over many chunks arrive in order, and every sent chunk goes back to the pool")
    func appendAndSend() throws {
        let sockets = try SocketPair()
        let pool = OutboundChunkPool()
        var queue = OutboundQueue(pool: pool)
        var expected: [UInt8] = []
        // Messages of awkward sizes, so they straddle chunk boundaries.
        for size in [1, 700, 5_000, 31_999, 2, 40_000, 100] {
            let message = Self.pattern(size, from: expected.count)
            message.withUnsafeBytes { queue.append($0) }
            expected += message
        }
        #expect(queue.count == expected.count)
        #expect(try queue.send(to: sockets.daemonSide))
        #expect(queue.count == 0)
        #expect(try sockets.read(expected.count) == expected)
        #expect(pool.spareCount == (expected.count + OutboundChunkPool.chunkBytes - 1) / OutboundChunkPool.chunkBytes)
    }

    @Test("a message written in place takes only the bytes it wrote, after what was queued before")
    func writtenInPlace() throws {
        let sockets = try SocketPair()
        var queue = OutboundQueue(pool: OutboundChunkPool())
        Array("first;".utf8).withUnsafeBytes { queue.append($0) }
        queue.append(maximumBytes: 100) { buffer in
            let text = Array("second;".utf8)
            for (index, byte) in text.enumerated() { buffer[index] = byte }
            return text.count
        }
        Array("third".utf8).withUnsafeBytes { queue.append($0) }
        #expect(queue.count == 18)
        #expect(try queue.send(to: sockets.daemonSide))
        #expect(String(decoding: try sockets.read(18), as: UTF8.self) == "first;second;third")
    }

    @Test("a full socket leaves the rest queued, and it is sent in order once the peer reads")
    func blockedThenResumed() throws {
        let sockets = try SocketPair()
        var queue = OutboundQueue(pool: OutboundChunkPool())
        let total = 4_000_000
        let bytes = Self.pattern(total)
        bytes.withUnsafeBytes { queue.append($0) }
        #expect(try queue.send(to: sockets.daemonSide) == false)
        let left = queue.count
        #expect(left > 0 && left < total)
        var received = try sockets.read(total - left)
        while queue.count > 0 {
            _ = try queue.send(to: sockets.daemonSide)
            received += try sockets.read(total - queue.count - received.count)
        }
        #expect(received == bytes)
    }

    @Test("a message larger than a chunk gets a chunk of its own, which the pool does not keep")
    func largeMessage() throws {
        let sockets = try SocketPair()
        let pool = OutboundChunkPool()
        var queue = OutboundQueue(pool: pool)
        let size = OutboundChunkPool.chunkBytes * 2 + 10
        queue.append(maximumBytes: size) { buffer in
            for index in 0..<size { buffer[index] = UInt8(index % 251) }
            return size
        }
        #expect(queue.count == size)
        #expect(try queue.send(to: sockets.daemonSide))
        #expect(try sockets.read(size) == Self.pattern(size))
        #expect(pool.spareCount == 0)
    }

    @Test("discarding forgets every unsent byte and returns the chunks")
    func discard() throws {
        let pool = OutboundChunkPool()
        var queue = OutboundQueue(pool: pool)
        Self.pattern(100_000).withUnsafeBytes { queue.append($0) }
        queue.removeAll()
        #expect(queue.count == 0)
        #expect(pool.spareCount == 4)
    }

    @Test("the pool hands back the chunk given last, unlinked, and keeps none once its spares are released")
    func poolOrder() {
        let pool = OutboundChunkPool()
        let chunks = (0..<3).map { _ in pool.take(atLeast: 10) }
        for chunk in chunks {
            chunk.end = 5
            pool.give(chunk)
        }
        #expect(pool.spareCount == 3)
        let taken = pool.take(atLeast: 10)
        #expect(taken === chunks[2])
        #expect(taken.next == nil && taken.start == 0 && taken.end == 0)
        #expect(pool.spareCount == 2)
        pool.releaseSpare()
        #expect(pool.spareCount == 0)
        #expect(pool.take(atLeast: 10) !== chunks[1])
        #expect(chunks.allSatisfy { $0.next == nil })
    }
}
