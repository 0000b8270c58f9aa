/// Writes one `vm.output` notification into stack memory and hands it to a closure: the
/// delivery hot path, without growing an array per notification.
///
/// The bytes are those of `VMOutputNotification.append` (a test checks they are identical):
/// prefix + seq digits + `,"value":` + value + `}}` (or `,"replay":true}}`).
enum OutputMessageWriter {
    private static let valueKey: StaticString = #","value":"#
    private static let tail: StaticString = "}}"
    private static let replayTail: StaticString = #","replay":true}}"#

    /// Builds the message and calls `body` with it (valid only during the call).
    @inline(__always)
    static func withMessage(
        prefix: [UInt8], seq: Int64, encodedValue: [UInt8], replay: Bool,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        let end = replay ? replayTail : tail
        // 20 digits and a sign cover any Int64.
        let capacity = prefix.count + 21 + valueKey.utf8CodeUnitCount + encodedValue.count + end.utf8CodeUnitCount
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { raw in
            guard let base = raw.baseAddress else { return }
            var cursor = base
            cursor = copy(prefix, to: cursor)
            cursor = writeDigits(seq, to: cursor)
            cursor = copy(valueKey, to: cursor)
            cursor = copy(encodedValue, to: cursor)
            cursor = copy(end, to: cursor)
            body(UnsafeRawBufferPointer(start: base, count: cursor - base))
        }
    }

    @inline(__always)
    private static func copy(_ bytes: [UInt8], to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        bytes.withUnsafeBytes { source in
            guard let start = source.baseAddress else { return cursor }
            cursor.copyMemory(from: start, byteCount: source.count)
            return cursor + source.count
        }
    }

    @inline(__always)
    private static func copy(_ text: StaticString, to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        return cursor + text.utf8CodeUnitCount
    }

    /// The decimal digits of `number` (seqs are positive; negatives are written correctly anyway).
    @inline(__always)
    private static func writeDigits(_ number: Int64, to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var cursor = cursor
        if number < 0 {
            cursor.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            cursor += 1
        }
        var magnitude = number.magnitude
        var digitCount = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digitCount += 1
        }
        var position = digitCount
        repeat {
            position -= 1
            (cursor + position).storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), as: UInt8.self)
            magnitude /= 10
        } while position > 0
        return cursor + digitCount
    }
}
