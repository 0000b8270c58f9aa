/// NDJSON framing: one message per `\n`-terminated line.
///
/// Accepts `\r\n` line ends, skips blank lines, and enforces ``maxFrameBytes`` without
/// buffering more than about that much: a line that grows past the limit is reported once
/// with ``FramingError/Kind-swift.enum/frameTooLarge(limit:)`` and the rest of it is dropped as
/// it arrives, so the next line frames normally.
package struct LineFramer: MessageFramer, Sendable {
    package let maxFrameBytes: Int
    private var buffer: [UInt8] = []
    /// First byte not yet returned.
    private var start = 0
    /// Bytes before this index (and after `start`) are known to hold no `\n`.
    private var scanned = 0
    /// Dropping the remainder of an over-long line until its `\n`.
    private var discarding = false

    package init(maxFrameBytes: Int = 1_048_576) {
        self.maxFrameBytes = maxFrameBytes
    }

    package var bufferedByteCount: Int { buffer.count - start }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var incoming = bytes
        if discarding {
            guard let newline = incoming.firstIndex(of: UInt8(ascii: "\n")) else { return }
            discarding = false
            incoming = UnsafeRawBufferPointer(rebasing: incoming[(newline + 1)...])
        }
        compact()
        buffer.append(contentsOf: incoming)
    }

    /// Reclaims consumed bytes once they pass ``compactionBytes`` and make up half the buffer
    /// (amortized O(1) per byte). Not on every append: emptying the array costs more than a
    /// small frame's framing (the generic `replaceSubrange`, measured with callgrind), so a
    /// connection sending one small message at a time pays it once per ~`compactionBytes`.
    private mutating func compact() {
        guard start >= Self.compactionBytes, start * 2 >= buffer.count else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeSubrange(0..<start)
        }
        scanned -= start
        start = 0
    }

    /// Consumed bytes kept before ``compact()`` reclaims them.
    static let compactionBytes = 1024

    package mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        while true {
            guard let newline = findNewline() else {
                scanned = buffer.count
                // One spare byte: the line may still end in "\r\n" within the limit.
                if buffer.count - start > maxFrameBytes + 1 {
                    buffer = []  // not keepingCapacity: the rest of the line is dropped unbuffered
                    start = 0
                    scanned = 0
                    discarding = true
                    throw FramingError.tooLarge(limit: maxFrameBytes)
                }
                releaseSlack()
                return nil
            }
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let frame = buffer[start..<end]
            start = newline + 1
            scanned = start
            if frame.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }  // blank line
            if frame.count > maxFrameBytes { throw FramingError.tooLarge(limit: maxFrameBytes) }
            return frame
        }
    }

    /// Out of complete frames: gives a large, mostly consumed buffer back (see ``FramerSlack``).
    private mutating func releaseSlack() {
        guard let trimmed = FramerSlack.trimmed(buffer, start: start) else { return }
        buffer = trimmed
        scanned -= start
        start = 0
    }

    /// The capacity of the inbound buffer, in bytes (what the framer retains while idle).
    package var retainedCapacity: Int { buffer.capacity }

    private func findNewline() -> Int? {
        let from = max(start, scanned)
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { bytes in Self.firstNewline(in: bytes, from: from) }
    }

    /// The index of the first `\n` in `bytes` at or after `from`, sixteen bytes per step: one
    /// vector compare tells whether a block holds a `\n` (the C library's `memchr` does the
    /// same, but only Posix talks to libc), and ``firstNewlineByWords(in:from:)`` finds it in
    /// the block that does. A ~100-byte line costs about half the word-at-a-time scan alone.
    static func firstNewline(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let newlines = SIMD16<UInt8>(repeating: UInt8(ascii: "\n"))
        // Wrapping arithmetic: `index` stays within `from...bytes.count`, so nothing can
        // overflow, and the checks would double the loop.
        let last = bytes.count &- 16
        var index = from
        while index <= last {
            let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            if any(block .== newlines) { break }
            index &+= 16
        }
        return firstNewlineByWords(in: bytes, from: index)
    }

    /// The index of the first `\n` in `bytes` at or after `from`, eight bytes per step: in
    /// `word ^ 0x0A0A…` the bytes that held `\n` are zero, and `(x - 0x0101…) & ~x & 0x8080…`
    /// sets the high bit of every zero byte of `x` (a borrow can also mark bytes above the
    /// first zero, never below it, so the lowest mark is exact).
    static func firstNewlineByWords(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        var index = from
        while bytes.count - index >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ newlines
            let marks = (word &- ones) & ~word & highBits
            if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
            index += 8
        }
        let last = bytes.count - 8
        if index < bytes.count, last >= from {
            // The last one to seven bytes: the buffer's last eight, overlapping bytes this scan
            // already read, which are masked off (they hold no `\n`, so no zero byte, so no
            // borrow into the rest either).
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: last, as: UInt64.self)) ^ newlines
            let marks = (word &- ones) & ~word & highBits & (~0 << (8 * UInt64(index - last)))
            return marks == 0 ? nil : last + marks.trailingZeroBitCount / 8
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }
}
