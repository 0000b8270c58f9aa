import JSONCore
import JSONRPC

/// Fuzzes the framers: the input is delivered in chunks whose sizes come from its first byte,
/// to a ``FramingDetector``, a ``LineFramer`` and a ``ContentLengthFramer`` with a small frame
/// limit, and every frame they return is classified by ``JSONRPCDecoder``.
///
/// Checked: no frame exceeds the limit, no framer buffers much more than limit + one chunk,
/// and a whole-input delivery and a chunked one produce the same frames from a ``LineFramer``.
enum FrameTarget {
    static let maxFrameBytes = 512

    static func run(_ input: UnsafeRawBufferPointer) {
        let chunk = 1 + Int(input.first ?? 0) % 64
        var detector = FramingDetector(maxFrameBytes: maxFrameBytes)
        _ = drain(&detector, input, chunk: chunk)

        var lines = LineFramer(maxFrameBytes: maxFrameBytes)
        let chunked = drain(&lines, input, chunk: chunk)
        var whole = LineFramer(maxFrameBytes: maxFrameBytes)
        let atOnce = drain(&whole, input, chunk: max(1, input.count))
        // An over-long line is dropped either way, but where the error is noticed depends on
        // the chunking; the frames that do come out must agree.
        precondition(chunked.frames == atOnce.frames, "LineFramer frames depend on how the bytes were split")

        var lsp = ContentLengthFramer(maxFrameBytes: maxFrameBytes, maxHeaderBytes: 256)
        _ = drain(&lsp, input, chunk: chunk)
    }

    /// What one framer produced from the input.
    struct Output {
        var frames: [[UInt8]] = []
        var errors = 0
    }

    private static func drain(_ framer: inout some MessageFramer, _ input: UnsafeRawBufferPointer, chunk: Int) -> Output {
        var output = Output()
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + chunk)
            framer.append(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
            offset = end
            // A failed LSP framer throws forever; a bounded number of pulls per chunk is enough.
            for _ in 0..<(chunk + 2) {
                do throws(FramingError) {
                    guard let frame = try framer.nextFrame() else { break }
                    precondition(frame.count <= framer.maxFrameBytes, "a frame of \(frame.count) bytes passed the \(framer.maxFrameBytes)-byte limit")
                    output.frames.append(Array(frame))
                    _ = JSONRPCDecoder.decode(frame)
                } catch {
                    output.errors += 1
                }
            }
            precondition(framer.bufferedByteCount <= framer.maxFrameBytes + 4096 + 2 * chunk,
                         "a framer holds \(framer.bufferedByteCount) bytes with a \(framer.maxFrameBytes)-byte limit")
        }
        return output
    }
}
