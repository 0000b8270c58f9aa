/// LSP framing: a header block (`Content-Length: N\r\n`, optionally `Content-Type: …\r\n`,
/// then `\r\n`), followed by exactly N bytes of body.
///
/// Header names are case-insensitive; unknown headers are ignored; `N` counts bytes. A body
/// larger than ``maxFrameBytes`` is reported as soon as its header is read and its bytes are
/// skipped as they arrive (never buffered), after which framing continues. A malformed header
/// block cannot be re-synchronized: every later call throws the same error.
package struct ContentLengthFramer: MessageFramer, Sendable {
    package let maxFrameBytes: Int
    /// The largest header block accepted.
    package let maxHeaderBytes: Int

    private enum State: Sendable {
        case headers
        case body(length: Int)
        case skipping(remaining: Int)
        case failed(FramingError)
    }

    private var state = State.headers
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    package init(maxFrameBytes: Int = 1_048_576, maxHeaderBytes: Int = 4096) {
        self.maxFrameBytes = maxFrameBytes
        self.maxHeaderBytes = maxHeaderBytes
    }

    package var bufferedByteCount: Int { buffer.count - start }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var incoming = bytes
        switch state {
        case .failed:
            return
        case .skipping(let remaining):
            // Drop the skipped body straight from the input (nothing of it is buffered:
            // entering this state consumed the buffer); keep only what follows it.
            let dropped = min(remaining, incoming.count)
            incoming = UnsafeRawBufferPointer(rebasing: incoming[dropped...])
            state = remaining == dropped ? .headers : .skipping(remaining: remaining - dropped)
        case .headers, .body:
            break
        }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        } else if start > 4096, start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanned = max(0, scanned - start)
            start = 0
        }
        buffer.append(contentsOf: incoming)
    }

    package mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .skipping:
                releaseSlack()
                return nil  // append drops the skipped bytes
            case .body(let length):
                guard buffer.count - start >= length else {
                    releaseSlack()
                    return nil
                }
                let frame = buffer[start..<(start + length)]
                start += length
                scanned = start
                state = .headers
                return frame
            case .headers:
                // Tolerate stray line ends between messages.
                while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
                scanned = max(scanned, start)
                guard let blockEnd = findHeaderEnd() else {
                    if buffer.count - start > maxHeaderBytes {
                        throw fail(FramingError(.headerTooLarge(limit: maxHeaderBytes),
                                                "LSP header block exceeds \(maxHeaderBytes) bytes without ending in a blank line"))
                    }
                    releaseSlack()
                    return nil
                }
                let length: Int
                do {
                    length = try parseHeaders(buffer[start..<blockEnd])
                } catch {
                    throw fail(error)
                }
                start = blockEnd + 4
                scanned = start
                if length > maxFrameBytes {
                    let buffered = buffer.count - start
                    if buffered >= length {
                        start += length
                        state = .headers
                    } else {
                        start = buffer.count
                        state = .skipping(remaining: length - buffered)
                    }
                    throw FramingError(.frameTooLarge(limit: maxFrameBytes),
                                       "frame of \(length) bytes exceeds the maximum of \(maxFrameBytes) bytes")
                }
                state = .body(length: length)
            }
        }
    }

    /// Out of complete frames: gives a large, mostly consumed buffer back (see ``FramerSlack``).
    private mutating func releaseSlack() {
        guard let trimmed = FramerSlack.trimmed(buffer, start: start) else { return }
        buffer = trimmed
        scanned = max(0, scanned - start)
        start = 0
    }

    /// The capacity of the inbound buffer, in bytes (what the framer retains while idle).
    package var retainedCapacity: Int { buffer.capacity }

    private mutating func fail(_ error: FramingError) -> FramingError {
        state = .failed(error)
        buffer = []
        start = 0
        scanned = 0
        return error
    }

    /// Index of the `\r\n\r\n` ending the header block, if it has arrived.
    private mutating func findHeaderEnd() -> Int? {
        var index = max(start, scanned)
        while index + 3 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index
            }
            index += 1
        }
        scanned = max(start, buffer.count - 3)
        return nil
    }

    /// Reads the header lines; returns Content-Length.
    private func parseHeaders(_ block: ArraySlice<UInt8>) throws(FramingError) -> Int {
        var contentLength: Int? = nil
        var lineStart = block.startIndex
        while lineStart < block.endIndex {
            var lineEnd = lineStart
            while lineEnd < block.endIndex, block[lineEnd] != 0x0D { lineEnd += 1 }
            let line = block[lineStart..<lineEnd]
            if lineEnd < block.endIndex, !(lineEnd + 1 < block.endIndex && block[lineEnd + 1] == 0x0A) {
                throw FramingError(.malformedHeader, "LSP header lines must end in \\r\\n")
            }
            lineStart = lineEnd + 2
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw FramingError(.malformedHeader, "malformed LSP header line \(Self.quote(line)) (expected 'Name: value')")
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                throw FramingError(.malformedHeader, "malformed LSP header name \(Self.quote(name))")
            }
            let value = Self.trimmed(line[(colon + 1)...])
            if Self.equalsIgnoringCase(name, "content-length") {
                guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    throw FramingError(.malformedHeader, "Content-Length must be a decimal byte count, not \(Self.quote(value))")
                }
                let length = value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                if let contentLength, contentLength != length {
                    throw FramingError(.malformedHeader, "conflicting Content-Length headers (\(contentLength) and \(length))")
                }
                contentLength = length
            }
            // Content-Type and any other header: accepted and ignored (the body is UTF-8 JSON).
        }
        guard let contentLength else {
            throw FramingError(.missingContentLength, "LSP header block has no Content-Length")
        }
        return contentLength
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let text = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return zip(bytes, text).allSatisfy { byte, wanted in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
        }
    }

    private static func quote(_ bytes: ArraySlice<UInt8>) -> String {
        "\"" + String(decoding: bytes.prefix(80), as: UTF8.self) + "\""
    }
}
