/// Writes JSON text straight into raw memory that the caller has sized (a transport's own
/// buffer), for encoders on the hot path that build a message without an intermediate array:
/// `vm.output` notifications (Sources/VMProtocol/Notifications/VMOutputNotification.swift) and
/// the replies of plain sends (Sources/JSONRPC/JSONRPCEncoder.swift). Each function writes at
/// `cursor` and returns the position just past what it wrote; none checks bounds.
public enum JSONByteWriter {
    /// The most bytes ``writeDigits(_:to:)`` writes: a sign and 19 digits cover any `Int64`.
    public static let maximumDigitsByteCount = 20

    /// Whether a JSON string literal holds `byte` as it is: every byte but the control
    /// characters (below 0x20), `"` and `\`, the only bytes the encoders escape
    /// (`JSONTextScratch.writeQuoted`). The one statement of that rule: the string writers,
    /// the checks of keys written without a scan and the `vm.create` reply's size
    /// (`VMCreateMethod.Result.plainTextByteCount`) all ask it.
    @inlinable @inline(__always)
    package static func writesVerbatim(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Whether a JSON string literal holds every one of `bytes` as it is (``writesVerbatim(_:)``).
    @inlinable
    package static func writesVerbatim(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !writesVerbatim(byte) { return false }
        return true
    }

    /// Copies `bytes` verbatim.
    @inlinable @inline(__always)
    public static func copy(_ bytes: [UInt8], to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        bytes.withUnsafeBytes { source in
            guard let start = source.baseAddress else { return cursor }
            cursor.copyMemory(from: start, byteCount: source.count)
            return cursor + source.count
        }
    }

    /// Copies `text`'s UTF-8 bytes verbatim.
    @inlinable @inline(__always)
    public static func copy(_ text: StaticString, to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        return cursor + text.utf8CodeUnitCount
    }

    /// The decimal digits of `number`, as ``JSONSerializer/appendInteger(_:to:)`` writes them:
    /// counted by comparisons, then written from the right two at a time (half the divisions).
    @inlinable @inline(__always)
    public static func writeDigits(_ number: Int64, to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var cursor = cursor
        if number < 0 {
            cursor.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            cursor += 1
        }
        // `magnitude` handles Int64.min without overflow.
        var magnitude = number.magnitude
        var digitCount = 1
        var bound: UInt64 = 10
        while digitCount < 20, magnitude >= bound {
            digitCount += 1
            bound = bound &* 10
        }
        var position = digitCount
        while magnitude >= 100 {
            let pair = magnitude % 100
            magnitude /= 100
            position -= 2
            (cursor + position).storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10), as: UInt8.self)
            (cursor + position + 1).storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10), as: UInt8.self)
        }
        if magnitude >= 10 {
            (cursor + 1).storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), as: UInt8.self)
            magnitude /= 10
        }
        cursor.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude), as: UInt8.self)
        return cursor + digitCount
    }
}
