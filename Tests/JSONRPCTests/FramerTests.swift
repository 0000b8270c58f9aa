import JSONRPC
import ReactiveTesting
import Testing


/// What a framer produced from a stream: frames and errors, in order.
enum FramerEvent: Equatable, CustomStringConvertible {
    case frame(String)
    case error(FramingError.Kind)

    var description: String {
        switch self {
        case .frame(let text): return "frame(\(text.count) bytes: \(text.prefix(40)))"
        case .error(let kind): return "error(\(kind))"
        }
    }
}

/// Ways to cut a stream into reads.
enum Chunking: CustomStringConvertible, CaseIterable {
    case whole, oneByte, random1, random2, random3

    var description: String {
        switch self {
        case .whole: "whole"
        case .oneByte: "one byte at a time"
        case .random1: "random chunks (seed 1)"
        case .random2: "random chunks (seed 2)"
        case .random3: "random chunks (seed 3)"
        }
    }

    func chunks(of stream: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole: return [stream[...]]
        case .oneByte: return stream.indices.map { stream[$0...$0] }
        case .random1, .random2, .random3:
            var generator = SeededGenerator(seed: self == .random1 ? 1 : self == .random2 ? 2 : 3)
            var result: [ArraySlice<UInt8>] = []
            var start = 0
            while start < stream.count {
                let length = Int.random(in: 1...97, using: &generator)
                let end = min(stream.count, start + length)
                result.append(stream[start..<end])
                start = end
            }
            return result
        }
    }
}

func run(_ framer: inout some MessageFramer, _ stream: [UInt8], _ chunking: Chunking, maxErrors: Int = 5) -> [FramerEvent] {
    var events: [FramerEvent] = []
    var errors = 0
    for chunk in chunking.chunks(of: stream) {
        framer.append(contentsOf: chunk)
        while true {
            do {
                guard let frame = try framer.nextFrame() else { break }
                events.append(.frame(String(decoding: frame, as: UTF8.self)))
            } catch {
                events.append(.error(error.kind))
                errors += 1
                if !error.isRecoverable || errors >= maxErrors { return events }
            }
        }
    }
    return events
}

enum Streams {
    static let frames: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"login-1","input":"email","value":"é😀 \\n"}}"#,
        "[]",
        "{" + String(repeating: #""k":"v","#, count: 700) + #""end":true}"#,
        #"{"jsonrpc":"2.0","id":"x","result":null}"#,
    ]

    /// NDJSON with a mix of `\n`, `\r\n` and blank lines.
    static var lines: [UInt8] {
        var stream: [UInt8] = Array("\n\r\n".utf8)
        for (index, frame) in frames.enumerated() {
            stream += Array(frame.utf8)
            stream += Array((index % 2 == 0 ? "\n" : "\r\n").utf8)
            if index == 2 { stream += Array("\n  \n".utf8) }
        }
        return stream
    }

    /// LSP framing with varied header spellings.
    static var contentLength: [UInt8] {
        var stream: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            let body = Array(frame.utf8)
            let header: String
            switch index % 3 {
            case 0: header = "Content-Length: \(body.count)\r\n\r\n"
            case 1: header = "content-length:\(body.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
            default: header = "Content-Type: application/json\r\nCONTENT-LENGTH:   \(body.count)  \r\n\r\n"
            }
            stream += Array(header.utf8) + body
        }
        return stream
    }
}

@Suite("Framers")
struct FramerTests {
    static let expected = Streams.frames.map(FramerEvent.frame)

    @Test("the line framer yields the same frames however the stream is cut", arguments: Chunking.allCases)
    func lineFramerDripFeed(_ chunking: Chunking) {
        var framer = LineFramer()
        #expect(run(&framer, Streams.lines, chunking) == Self.expected)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("the Content-Length framer yields the same frames however the stream is cut", arguments: Chunking.allCases)
    func contentLengthDripFeed(_ chunking: Chunking) {
        var framer = ContentLengthFramer()
        #expect(run(&framer, Streams.contentLength, chunking) == Self.expected)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("the detector picks the framing from the first byte", arguments: Chunking.allCases)
    func detectorDripFeed(_ chunking: Chunking) {
        var lines = FramingDetector()
        #expect(lines.format == nil)
        #expect(run(&lines, Array(Streams.lines.drop(while: { $0 != UInt8(ascii: "{") })), chunking) == Self.expected)
        #expect(lines.format == .lines)
        var lsp = FramingDetector()
        #expect(run(&lsp, Streams.contentLength, chunking) == Self.expected)
        #expect(lsp.format == .contentLength)
        #expect(FramingDetector.format(forFirstByte: UInt8(ascii: "[")) == .lines)
    }

    @Test("an over-long line is reported once, skipped, and framing goes on", arguments: Chunking.allCases)
    func overLongLine(_ chunking: Chunking) {
        var framer = LineFramer(maxFrameBytes: 100)
        let exactly100 = String(repeating: "a", count: 100)
        let stream = Array(("first\n" + String(repeating: "x", count: 500) + "\n" + exactly100 + "\r\n"
            + String(repeating: "y", count: 101) + "\nlast\n").utf8)
        #expect(run(&framer, stream, chunking) == [
            .frame("first"), .error(.frameTooLarge(limit: 100)), .frame(exactly100), .error(.frameTooLarge(limit: 100)), .frame("last"),
        ])
    }

    @Test("the line framer never buffers much more than the limit")
    func boundedBuffering() {
        var framer = LineFramer(maxFrameBytes: 1 << 20)
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 65536)
        var errors = 0
        var peak = 0
        for _ in 0..<160 {  // 10 MiB without a newline
            framer.append(contentsOf: chunk)
            peak = max(peak, framer.bufferedByteCount)
            do { _ = try framer.nextFrame() } catch { errors += 1 }
        }
        #expect(errors == 1)
        #expect(peak <= (1 << 20) + 65536)
        framer.append(contentsOf: Array("tail\nok\n".utf8))
        #expect((try? framer.nextFrame()).flatMap { $0.map { String(decoding: $0, as: UTF8.self) } } == "ok")
    }

    @Test("an over-long LSP body is skipped without buffering it", arguments: Chunking.allCases)
    func overLongBody(_ chunking: Chunking) {
        var framer = ContentLengthFramer(maxFrameBytes: 100)
        let big = String(repeating: "b", count: 5000)
        let stream = Array(("Content-Length: 2\r\n\r\n{}Content-Length: 5000\r\n\r\n\(big)Content-Length: 2\r\n\r\n[]").utf8)
        var peak = 0
        var events: [FramerEvent] = []
        for piece in chunking.chunks(of: stream) {
            framer.append(contentsOf: piece)
            peak = max(peak, framer.bufferedByteCount)
            while true {
                do {
                    guard let frame = try framer.nextFrame() else { break }
                    events.append(.frame(String(decoding: frame, as: UTF8.self)))
                } catch {
                    events.append(.error(error.kind))
                }
            }
        }
        #expect(events == [.frame("{}"), .error(.frameTooLarge(limit: 100)), .frame("[]")])
        #expect(peak < 200 || chunking == .whole)
    }

    static let malformed: [(String, FramingError.Kind)] = [
        ("Content-Length: abc\r\n\r\n", .malformedHeader),
        ("Content-Length: -1\r\n\r\n", .malformedHeader),
        ("Content Length: 1\r\n\r\n", .malformedHeader),
        ("Content-Length 12\r\n\r\n", .malformedHeader),
        ("Content-Type: x\r\n\r\n", .missingContentLength),
        ("Content-Length: 1\r\nContent-Length: 2\r\n\r\n", .malformedHeader),
        ("Content-Length: 99999999999999999999\r\n\r\n", .malformedHeader),
        ("Content-Length: 1\rX\r\n\r\n", .malformedHeader),
        ("Content-Length: " + String(repeating: "1", count: 5000), .headerTooLarge(limit: 4096)),
    ]

    @Test("malformed LSP headers are errors, and stay errors", arguments: malformed)
    func malformedHeaders(_ stream: String, _ kind: FramingError.Kind) {
        var framer = ContentLengthFramer()
        #expect(run(&framer, Array(stream.utf8), .whole) == [.error(kind)])
        framer.append(contentsOf: Array("Content-Length: 2\r\n\r\n{}".utf8))
        #expect(throws: FramingError.self) { try framer.nextFrame() }
    }

    @Test("frame encoders write what the framers read back")
    func encodersRoundTrip() throws {
        for format in [FrameFormat.lines, .contentLength] {
            var stream: [UInt8] = []
            for frame in Streams.frames { format.appendFrame(Array(frame.utf8), to: &stream) }
            format.appendFramed(to: &stream) { $0 += Array("{\"é\":1}".utf8) }
            var framer = FramingDetector()
            let events = run(&framer, stream, .random2)
            #expect(events == Self.expected + [.frame("{\"é\":1}")], "\(format)")
        }
        var lsp: [UInt8] = []
        FrameFormat.contentLength.appendFrame(Array("é".utf8), to: &lsp)
        #expect(String(decoding: lsp, as: UTF8.self) == "Content-Length: 2\r\n\r\né")
    }
}
