import JSONCore
import VMProtocol

/// Reads a `vm.output` frame in the one shape the daemon writes it (VMOutputNotification.swift:
/// a fixed head, `subscription`, `instance`, `output`, `seq`, then `value` and an optional
/// `replay`), without building the envelope as a ``JSONValue``: only the value is parsed.
///
/// Anything else (a patch, escapes or non-ASCII bytes in the names, another member order, a
/// frame that is not well-formed) returns nil and takes the general path (ClientWire.swift),
/// which reads any valid message; so this reader never decides what a frame means, it only
/// saves work on the frames a busy subscription is made of (its gain: ViewModelDaemon.docc's
/// Performance article).
enum OutputFrameReader {
    // Static strings, not arrays: compared through their constant bytes, with no lazy global
    // and no array bounds check per byte.
    private static var head: StaticString { #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":""# }
    private static var instanceKey: StaticString { #","instance":""# }
    private static var outputKey: StaticString { #","output":""# }
    private static var seqKey: StaticString { #","seq":"# }
    private static var valueKey: StaticString { #","value":"# }
    private static var tail: StaticString { "}}" }
    private static var replayTail: StaticString { #","replay":true}}"# }

    /// Reads the notification in `frame` (one line without its newline) and hands it to
    /// `deliver`; false when it is not a `vm.output` in the daemon's own shape. Its names come
    /// from `names`, made once per subscription and output.
    static func read(
        _ frame: UnsafeRawBufferPointer, names: inout OutputNameCache, to deliver: (consuming VMOutputEvent, inout OutputRoute) -> Void
    ) -> Bool {
        var cursor = Cursor(bytes: frame)
        guard cursor.skip(head) else { return false }
        // The names: one compare when a frame spelled them so before, else read and kept.
        let entry: Int
        if let (found, quote) = names.find(in: frame, at: cursor.position) {
            entry = found
            cursor.position = quote + 1
        } else {
            let start = cursor.position
            guard let subscription = cursor.plainString(), cursor.skip(instanceKey), let instance = cursor.plainString(),
                  cursor.skip(outputKey), let output = cursor.plainString() else { return false }
            let made = OutputNames(subscription: Self.string(frame, subscription), instance: Self.string(frame, instance),
                                   output: Self.string(frame, output))
            entry = names.add(made, spelledBy: UnsafeRawBufferPointer(rebasing: frame[start..<output.upperBound]))
        }
        guard cursor.skip(seqKey), let seq = cursor.integer(), cursor.skip(valueKey) else { return false }
        let isReplay = frame.count - cursor.position > replayTail.utf8CodeUnitCount && cursor.endsWith(replayTail)
        guard isReplay || cursor.endsWith(tail) else { return false }
        let valueEnd = frame.count - (isReplay ? replayTail : tail).utf8CodeUnitCount
        guard valueEnd > cursor.position else { return false }
        let valueBytes = UnsafeRawBufferPointer(rebasing: frame[cursor.position..<valueEnd])
        let value: JSONValue
        var digits = Cursor(bytes: valueBytes)
        if let integer = digits.integer(), digits.position == valueBytes.count {
            value = .integer(integer)  // a plain count, as the parser reads it, without its set-up
        } else {
            guard let parsed = try? JSONParser.parse(valueBytes) else { return false }
            value = parsed
        }
        names.withEntry(entry) { names, route in
            deliver(VMOutputEvent(names: names, value: value, seq: seq, isReplay: isReplay), &route)
        }
        return true
    }

    /// The notification in `frame`, or nil when it is not a `vm.output` in the daemon's own
    /// shape (with names of its own: for tests).
    static func read(_ frame: UnsafeRawBufferPointer) -> VMOutputEvent? {
        var names = OutputNameCache()
        var event: VMOutputEvent?
        _ = read(frame, names: &names) { read, _ in event = read }
        return event
    }

    /// The bytes of `range` in `frame`, already checked to be plain ASCII, as a `String`.
    private static func string(_ frame: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let text = UnsafeRawBufferPointer(rebasing: frame[range])
        return String(unsafeUninitializedCapacity: text.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: text)
            return text.count
        }
    }

    /// A position in a frame, moved forward by what it reads.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        /// Moves past `expected` when the bytes here are exactly it.
        mutating func skip(_ expected: StaticString) -> Bool {
            guard matches(expected, at: position) else { return false }
            position += expected.utf8CodeUnitCount
            return true
        }

        /// Whether the bytes at `start` are exactly `expected`. Every byte is compared, without
        /// a branch per byte: the differences are or-ed together, a loop the optimizer turns
        /// into vector compares (a frame that matches, the usual case, reads them all anyway).
        func matches(_ expected: StaticString, at start: Int) -> Bool {
            expected.withUTF8Buffer { expected in
                guard start >= 0, bytes.count - start >= expected.count else { return false }
                var difference: UInt8 = 0
                for offset in 0..<expected.count {
                    difference |= bytes[start &+ offset] ^ expected[offset]
                }
                return difference == 0
            }
        }

        /// The positions of the string up to the next quote, past that quote; nil when it has
        /// an escape, a control character or a non-ASCII byte (the general path reads those).
        mutating func plainString() -> Range<Int>? {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    defer { position += 1 }
                    return start..<position
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
                position += 1
            }
            return nil
        }

        /// A non-negative integer of at most 18 digits without a leading zero (seq is 1, 2, 3, …).
        mutating func integer() -> Int64? {
            let start = position
            let end = min(bytes.count, start &+ 18)
            var value: Int64 = 0
            // One compare per digit (a byte below "0" wraps above 9); 18 digits cannot overflow.
            while position < end {
                let digit = bytes[position] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value &* 10 &+ Int64(digit)
                position &+= 1
            }
            let digits = position - start
            guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            return value
        }

        /// Whether the frame ends with `suffix`.
        func endsWith(_ suffix: StaticString) -> Bool {
            matches(suffix, at: bytes.count - suffix.utf8CodeUnitCount)
        }
    }
}
