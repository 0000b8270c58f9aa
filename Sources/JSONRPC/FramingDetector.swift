/// The framer of a connection whose framing is decided by its first byte: `C` (the start of
/// `Content-Length`) selects LSP framing, anything else NDJSON. Until a byte arrives it
/// buffers nothing and ``format`` is `nil`.
package struct FramingDetector: MessageFramer, Sendable {
    // At most one of the two is set, from the first byte on. Two optionals rather than one
    // enum: optional chaining mutates a framer in place, where taking it out of an enum case
    // and putting it back cost a copy of its state per frame (measured with callgrind).
    private var lines: LineFramer?
    private var contentLength: ContentLengthFramer?

    package let maxFrameBytes: Int

    package init(maxFrameBytes: Int = 1_048_576) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// The framing a connection speaks, judged from its first byte.
    package static func format(forFirstByte byte: UInt8) -> FrameFormat {
        byte == UInt8(ascii: "C") ? .contentLength : .lines
    }

    /// The detected framing (use it for replies too), `nil` before the first byte.
    package var format: FrameFormat? {
        if lines != nil { return .lines }
        if contentLength != nil { return .contentLength }
        return nil
    }

    package var bufferedByteCount: Int {
        lines?.bufferedByteCount ?? contentLength?.bufferedByteCount ?? 0
    }

    /// The capacity of the chosen framer's inbound buffer, in bytes: what an idle connection
    /// retains (at most 64 KiB once its frames are consumed; see `FramerSlack`).
    package var retainedCapacity: Int {
        lines?.retainedCapacity ?? contentLength?.retainedCapacity ?? 0
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if lines == nil, contentLength == nil {
            guard let first = bytes.first else { return }
            switch FramingDetector.format(forFirstByte: first) {
            case .contentLength: contentLength = ContentLengthFramer(maxFrameBytes: maxFrameBytes)
            case .lines: lines = LineFramer(maxFrameBytes: maxFrameBytes)
            }
        }
        if lines != nil {
            lines?.append(bytes)
        } else {
            contentLength?.append(bytes)
        }
    }

    package mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        if lines != nil { return try lines?.nextFrame() }
        return try contentLength?.nextFrame()
    }
}
