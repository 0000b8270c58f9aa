import JSONRPC
import Testing

/// An idle connection must not keep the buffer of its largest frame.
@Suite("Framers give a large inbound buffer back once its frames are consumed")
struct FramerMemoryTests {
    static let large = 1_000_000
    static let kept = 65_536

    /// A string member of `size` bytes in one request, as one NDJSON line or one LSP body.
    static func bigMessage(size: Int) -> String {
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"text":""# + String(repeating: "x", count: size) + #""}}"#
    }

    /// Feeds `bytes` in 64 KiB reads, as the daemon does, and collects every frame's size.
    static func feed(_ bytes: [UInt8], to framer: inout FramingDetector) throws -> [Int] {
        var sizes: [Int] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 65_536, bytes.count)
            bytes[offset..<end].withUnsafeBytes { framer.append($0) }
            offset = end
            while let frame = try framer.nextFrame() { sizes.append(frame.count) }
        }
        return sizes
    }

    @Test("after a 1 MB line is framed, the line framer retains at most 64 KiB")
    func lineFramerReleasesLargeBuffer() throws {
        var framer = FramingDetector(maxFrameBytes: 2_000_000)
        let message = Self.bigMessage(size: Self.large)
        let sizes = try Self.feed(Array((message + "\n").utf8), to: &framer)
        #expect(sizes == [message.utf8.count])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.retainedCapacity <= Self.kept)
    }

    @Test("after a 1 MB LSP body is framed, the Content-Length framer retains at most 64 KiB")
    func contentLengthFramerReleasesLargeBuffer() throws {
        var framer = FramingDetector(maxFrameBytes: 2_000_000)
        let body = Self.bigMessage(size: Self.large)
        let sizes = try Self.feed(Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8), to: &framer)
        #expect(sizes == [body.utf8.count])
        #expect(framer.retainedCapacity <= Self.kept)
    }

    @Test("a partial small frame after a large one keeps only a small buffer")
    func partialFrameAfterLargeOne() throws {
        var framer = FramingDetector(maxFrameBytes: 2_000_000)
        let message = Self.bigMessage(size: Self.large)
        let partial = #"{"jsonrpc":"2.0","id":2,"#
        let sizes = try Self.feed(Array((message + "\n" + partial).utf8), to: &framer)
        #expect(sizes == [message.utf8.count])
        #expect(framer.bufferedByteCount == partial.utf8.count)
        #expect(framer.retainedCapacity <= Self.kept)
        framer.append(contentsOf: Array(#""method":"vm.list"}"#.utf8) + [0x0A])
        #expect(try framer.nextFrame().map { String(decoding: $0, as: UTF8.self) } == #"{"jsonrpc":"2.0","id":2,"method":"vm.list"}"#)
    }

    @Test("a line over maxFrameBytes is dropped without keeping its buffer")
    func overlongLineReleasesBuffer() throws {
        var framer = FramingDetector(maxFrameBytes: 100_000)
        let message = Self.bigMessage(size: 300_000)
        #expect(throws: FramingError.self) { try Self.feed(Array((message + "\n").utf8), to: &framer) }
        #expect(framer.retainedCapacity <= Self.kept)
    }

    @Test("many small frames frame correctly and keep at most two reads of buffer")
    func smallFramesUnaffected() throws {
        var framer = FramingDetector(maxFrameBytes: 1_048_576)
        let line = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"c","input":"increment"}}"#
        let stream = Array(String(repeating: line + "\n", count: 5_000).utf8)
        let sizes = try Self.feed(stream, to: &framer)
        #expect(sizes.count == 5_000)
        #expect(sizes.allSatisfy { $0 == line.utf8.count })
        #expect(framer.retainedCapacity <= Self.kept * 2)
    }
}
