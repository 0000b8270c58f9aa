/// The framer of a connection whose framing is decided by its first byte: `C` (the start of
/// `Content-Length`) selects LSP framing, anything else NDJSON. Until a byte arrives it
/// buffers nothing and ``format`` is `nil`.
public struct FramingDetector: MessageFramer, Sendable {
    private enum State: Sendable {
        case undecided
        case lines(LineFramer)
        case contentLength(ContentLengthFramer)
    }

    public let maxFrameBytes: Int
    private var state = State.undecided

    public init(maxFrameBytes: Int = 1_048_576) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// The framing a connection speaks, judged from its first byte.
    public static func format(forFirstByte byte: UInt8) -> FrameFormat {
        byte == UInt8(ascii: "C") ? .contentLength : .lines
    }

    /// The detected framing (use it for replies too), `nil` before the first byte.
    public var format: FrameFormat? {
        switch state {
        case .undecided: return nil
        case .lines: return .lines
        case .contentLength: return .contentLength
        }
    }

    public var bufferedByteCount: Int {
        switch state {
        case .undecided: return 0
        case .lines(let framer): return framer.bufferedByteCount
        case .contentLength(let framer): return framer.bufferedByteCount
        }
    }

    /// The capacity of the chosen framer's inbound buffer, in bytes: what an idle connection
    /// retains (at most 64 KiB once its frames are consumed; see `FramerSlack`).
    public var retainedCapacity: Int {
        switch state {
        case .undecided: return 0
        case .lines(let framer): return framer.retainedCapacity
        case .contentLength(let framer): return framer.retainedCapacity
        }
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if case .undecided = state {
            guard let first = bytes.first else { return }
            switch FramingDetector.format(forFirstByte: first) {
            case .contentLength: state = .contentLength(ContentLengthFramer(maxFrameBytes: maxFrameBytes))
            case .lines: state = .lines(LineFramer(maxFrameBytes: maxFrameBytes))
            }
        }
        switch state {
        case .undecided: break
        case .lines(var framer):
            state = .undecided  // release the enum's reference so the append does not copy
            framer.append(bytes)
            state = .lines(framer)
        case .contentLength(var framer):
            state = .undecided
            framer.append(bytes)
            state = .contentLength(framer)
        }
    }

    public mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        switch state {
        case .undecided:
            return nil
        case .lines(var framer):
            state = .undecided
            defer { state = .lines(framer) }
            return try framer.nextFrame()
        case .contentLength(var framer):
            state = .undecided
            defer { state = .contentLength(framer) }
            return try framer.nextFrame()
        }
    }
}
