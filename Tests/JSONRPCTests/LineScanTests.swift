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
}
