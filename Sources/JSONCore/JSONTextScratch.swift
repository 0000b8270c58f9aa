/// The compact serializer's output stage: JSON text is written into a small stack buffer and
/// appended to the caller's array one chunk at a time (once, for a small value), instead of
/// one `Array.append` per byte or piece, each of which checks uniqueness and capacity.
///
/// Every write first makes room for its longest form (a flush when the chunk is too full to
/// hold it), so no index passes the chunk's end. ``JSONSerializer`` owns the format; this
/// type only decides where its bytes go.
struct JSONTextScratch: ~Copyable {
    /// Bytes of the stack chunk: well under the size the standard library keeps on the stack
    /// for `withUnsafeTemporaryAllocation`, and more than a small object's whole text.
    static var chunkSize: Int { 512 }

    private let chunk: UnsafeMutableBufferPointer<UInt8>
    private var used = 0

    private init(chunk: UnsafeMutableBufferPointer<UInt8>) {
        self.chunk = chunk
    }

    /// Runs `body` with a writer over a fresh stack chunk, then appends what is left in it.
    static func writing(to buffer: inout [UInt8], _ body: (inout JSONTextScratch, inout [UInt8]) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { chunk in
            var writer = JSONTextScratch(chunk: chunk)
            body(&writer, &buffer)
            writer.flush(to: &buffer)
        }
    }

    /// Runs `body` with a writer over a fresh stack chunk, handed over to it: `body` keeps it in
    /// a writer of its own (``JSONTextWriter``) and must flush it before returning. The chunk
    /// is valid only during `body`; the scratch is noncopyable and `body` returns nothing, so
    /// it cannot outlive the call.
    static func withFreshChunk(_ body: (consuming JSONTextScratch) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { chunk in
            body(JSONTextScratch(chunk: chunk))
        }
    }

    /// Appends the bytes written so far to `buffer` and empties the chunk.
    mutating func flush(to buffer: inout [UInt8]) {
        guard used > 0 else { return }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<used]))
        used = 0
    }

    @inline(__always)
    private mutating func makeRoom(_ count: Int, flushingTo buffer: inout [UInt8]) {
        if used + count > JSONTextScratch.chunkSize { flush(to: &buffer) }
    }

    @inline(__always)
    mutating func write(_ byte: UInt8, flushingTo buffer: inout [UInt8]) {
        makeRoom(1, flushingTo: &buffer)
        chunk[used] = byte
        used += 1
    }

    /// Writes `text` (a literal far shorter than the chunk) verbatim.
    @inline(__always)
    mutating func write(_ text: StaticString, flushingTo buffer: inout [UInt8]) {
        makeRoom(text.utf8CodeUnitCount, flushingTo: &buffer)
        let source = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount { chunk[used + offset] = source[offset] }
        used += text.utf8CodeUnitCount
    }

    /// Writes `"key":`, after a comma when `comma`, for a key that needs no escaping and is far
    /// shorter than the chunk: one check for room for the whole piece.
    @inline(__always)
    mutating func writeKey(_ key: StaticString, comma: Bool, flushingTo buffer: inout [UInt8]) {
        let count = key.utf8CodeUnitCount
        makeRoom(count + 4, flushingTo: &buffer)
        var index = used
        if comma {
            chunk[index] = UInt8(ascii: ",")
            index += 1
        }
        chunk[index] = UInt8(ascii: "\"")
        let source = key.utf8Start
        for offset in 0..<count { chunk[index + 1 + offset] = source[offset] }
        index += count + 1
        chunk[index] = UInt8(ascii: "\"")
        chunk[index + 1] = UInt8(ascii: ":")
        used = index + 2
    }

    /// Writes `bytes` verbatim, in as many chunks as they need.
    mutating func write(verbatim bytes: some Sequence<UInt8>, flushingTo buffer: inout [UInt8]) {
        for byte in bytes { write(byte, flushingTo: &buffer) }
    }

    /// Writes the decimal digits of `number` (``JSONByteWriter/writeDigits(_:to:)``).
    mutating func writeDigits(_ number: Int64, flushingTo buffer: inout [UInt8]) {
        makeRoom(JSONByteWriter.maximumDigitsByteCount, flushingTo: &buffer)
        guard let base = chunk.baseAddress else { return }
        let start = UnsafeMutableRawPointer(base + used)
        used += JSONByteWriter.writeDigits(number, to: start) - start
    }

    /// Writes `bytes` (UTF-8) as a JSON string literal, quotes included: `"`, `\` and the
    /// control characters escaped (the short forms where JSON has one, else `\u00xx`),
    /// everything else verbatim.
    mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>, flushingTo buffer: inout [UInt8]) {
        write(UInt8(ascii: "\""), flushingTo: &buffer)
        var start = 0
        while start < bytes.count {
            let count = min(bytes.count - start, JSONTextScratch.escapedPieceSize)
            // Room for the piece's longest form (each byte a six-byte escape), so the loop
            // below needs no check of its own.
            makeRoom(count * 6, flushingTo: &buffer)
            var index = used
            for byte in UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]) {
                if JSONByteWriter.writesVerbatim(byte) {
                    chunk[index] = byte
                    index &+= 1  // < used + 6 × count, which the room check bounded
                } else {
                    index = writeEscape(for: byte, at: index)
                }
            }
            used = index
            start += count
        }
        write(UInt8(ascii: "\""), flushingTo: &buffer)
    }

    /// Bytes of a string escaped between two checks for room: their longest form (six bytes
    /// each) is well under a chunk.
    private static var escapedPieceSize: Int { 64 }

    /// Writes the escape of `byte` at `index` (with room for six bytes); returns the index after it.
    private func writeEscape(for byte: UInt8, at index: Int) -> Int {
        chunk[index] = UInt8(ascii: "\\")
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            chunk[index + 1] = UInt8(ascii: "u")
            chunk[index + 2] = UInt8(ascii: "0")
            chunk[index + 3] = UInt8(ascii: "0")
            chunk[index + 4] = JSONTextScratch.hexDigit(byte >> 4)
            chunk[index + 5] = JSONTextScratch.hexDigit(byte & 0xF)
            return index + 6
        }
        chunk[index + 1] = short
        return index + 2
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
