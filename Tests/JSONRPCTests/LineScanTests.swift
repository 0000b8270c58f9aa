@testable import JSONRPC
import Testing

@Suite("The line framer's newline scan")
struct LineScanTests {
    /// Bytes that differ from `\n` in one bit or sit next to it, which a word-at-a-time scan
    /// must not mistake for it.
    static let lookalikes: [UInt8] = [0x0B, 0x09, 0x08, 0x1A, 0x8A, 0x4A, 0xFF, 0x00, 0x0E, 0x2A]

    @Test("finds every line end exactly, whatever the line lengths and neighbouring bytes")
    func exactLineEnds() throws {
        var stream: [UInt8] = []
        var expected: [[UInt8]] = []
        for length in 1...40 {
            let line = (0..<length).map { Self.lookalikes[($0 + length) % Self.lookalikes.count] | ($0 == 0 ? 0x40 : 0) }
            expected.append(line)
            stream += line + [0x0A]
        }
        var framer = LineFramer(maxFrameBytes: 1024)
        stream.withUnsafeBytes { framer.append($0) }
        var frames: [[UInt8]] = []
        while let frame = try framer.nextFrame() { frames.append(Array(frame)) }
        #expect(frames == expected)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("a line split at every offset of its read frames the same")
    func splitAtEveryOffset() throws {
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"c","input":"i"}}"#.utf8)
        let stream = line + [0x0A] + line + [0x0A]
        for cut in 0...stream.count {
            var framer = LineFramer()
            var frames: [[UInt8]] = []
            for part in [stream[..<cut], stream[cut...]] {
                Array(part).withUnsafeBytes { framer.append($0) }
                while let frame = try framer.nextFrame() { frames.append(Array(frame)) }
            }
            #expect(frames == [line, line], "cut at \(cut)")
        }
    }

    @Test("the vector scan and the word-at-a-time scan find the first newline from every start, as a byte-by-byte search does")
    func bothScansAgree() {
        var bytes: [UInt8] = []
        for index in 0..<300 { bytes.append(index % 37 == 36 ? 0x0A : Self.lookalikes[index % Self.lookalikes.count]) }
        bytes.withUnsafeBytes { raw in
            for from in 0...raw.count {
                let expected = raw[from...].firstIndex(of: 0x0A)
                #expect(LineFramer.firstNewline(in: raw, from: from) == expected, "from \(from)")
                #expect(LineFramer.firstNewlineByWords(in: raw, from: from) == expected, "from \(from)")
            }
        }
        // Short buffers and tails of every length, a newline at each place or nowhere.
        for count in 0..<40 {
            for place in -1..<count {
                var short = [UInt8](repeating: 0x0B, count: count)
                if place >= 0 { short[place] = 0x0A }
                short.withUnsafeBytes { raw in
                    for from in 0...count {
                        let expected = raw[from...].firstIndex(of: 0x0A)
                        #expect(LineFramer.firstNewline(in: raw, from: from) == expected)
                        #expect(LineFramer.firstNewlineByWords(in: raw, from: from) == expected)
                    }
                }
            }
        }
        let none = [UInt8](repeating: 0x0B, count: 100)
        none.withUnsafeBytes { #expect(LineFramer.firstNewline(in: $0, from: 0) == nil) }
    }

    @Test("frames arriving one read at a time stay whole while consumed bytes are reclaimed between reads")
    func reclaimingBetweenReads() throws {
        var framer = LineFramer(maxFrameBytes: 4096)
        var received: [[UInt8]] = []
        var sent: [[UInt8]] = []
        // Lines of varying lengths, each split over two reads, well past the bytes kept
        // before reclaiming, so reclaiming happens with part of a line still buffered.
        for index in 0..<400 {
            let line = Array("{\"n\":\(index),\"pad\":\"\(String(repeating: "x", count: index % 53))\"}".utf8)
            sent.append(line)
            let whole = line + [0x0A]
            let cut = index % whole.count
            for part in [whole[..<cut], whole[cut...]] {
                Array(part).withUnsafeBytes { framer.append($0) }
                while let frame = try framer.nextFrame() { received.append(Array(frame)) }
            }
        }
        #expect(received == sent)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.retainedCapacity <= 4 * LineFramer.compactionBytes)
    }

    /// The frames (and whether a too-large error came, and where) of `stream` read by a
    /// buffering framer.
    static func framedBuffered(_ stream: [UInt8], limit: Int) -> [String] {
        var framer = LineFramer(maxFrameBytes: limit)
        stream.withUnsafeBytes { framer.append($0) }
        var out: [String] = []
        while true {
            do {
                guard let frame = try framer.nextFrame() else { break }
                out.append(String(decoding: frame, as: UTF8.self))
            } catch {
                out.append("<too large>")
            }
        }
        return out
    }

    /// The same stream framed in place first, the rest appended and framed by the buffer.
    static func framedInPlace(_ stream: [UInt8], limit: Int) -> [String] {
        var framer = LineFramer(maxFrameBytes: limit)
        var out: [String] = []
        #expect(framer.isEmpty)
        stream.withUnsafeBytes { bytes in
            var offset = 0
            while let frame = LineFramer.nextFrame(in: bytes, from: &offset, maxFrameBytes: limit) {
                out.append(String(decoding: frame, as: UTF8.self))
            }
            framer.append(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        while true {
            do {
                guard let frame = try framer.nextFrame() else { break }
                out.append(String(decoding: frame, as: UTF8.self))
            } catch {
                out.append("<too large>")
            }
        }
        return out
    }

    @Test("frames read in place are the frames the buffer gives: CR LF ends, blank lines, a line over the limit, a partial tail")
    func inPlaceMatchesBuffered() {
        let streams = [
            "{\"a\":1}\n{\"b\":2}\n",
            "{\"a\":1}\r\n\r\n   \n\t\n{\"b\":2}\r\n{\"c\"",
            "{\"short\":1}\n{\"far too long for the limit\":12345}\n{\"after\":2}\n",
            "{\"far too long for the limit, and no end",
            "\n\n\n",
            "",
            "{\"x\":\"0123456789abcdef0123456789abcdef\"}\n{\"y\":1}",
        ]
        for text in streams {
            let stream = Array(text.utf8)
            #expect(Self.framedInPlace(stream, limit: 24) == Self.framedBuffered(stream, limit: 24), "\(text)")
            #expect(Self.framedInPlace(stream, limit: 1024) == Self.framedBuffered(stream, limit: 1024), "\(text)")
        }
    }

    @Test("a framer holding part of a line, or dropping an over-long one, does not frame in place")
    func notEmptyWhileHolding() throws {
        var framer = LineFramer(maxFrameBytes: 8)
        Array("{\"a\"".utf8).withUnsafeBytes { framer.append($0) }
        #expect(try framer.nextFrame() == nil)
        #expect(!framer.isEmpty)
        Array(":1}\n".utf8).withUnsafeBytes { framer.append($0) }
        #expect(try framer.nextFrame().map { Array($0) } == Array("{\"a\":1}".utf8))
        #expect(framer.isEmpty)
        Array("0123456789012345".utf8).withUnsafeBytes { framer.append($0) }
        #expect(throws: FramingError.self) { try framer.nextFrame() }
        #expect(!framer.isEmpty)
    }
}
