import JSONCore

/// `vm.output {subscription, instance, output, seq, value, replay?}` (daemon → client), or
/// on a subscription with `patches`, `{subscription, instance, output, seq, patch}`.
///
/// The one encoder of these bytes. Built on the hot path without a ``JSONValue``: each
/// (subscription, output) keeps its ``prefix(subscription:instance:output:)`` bytes, the
/// server encodes each value once, and a notification is prefix + seq digits + `,"value":` +
/// value bytes + `}}`, written straight into the transport's buffer by
/// ``write(prefix:seq:encodedValue:replay:into:)``. Member order is not significant on the
/// wire (PROTOCOL.md §3).
public enum VMOutputNotification {
    public static let name = "vm.output"

    /// `{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":…,"instance":…,"output":…,"seq":`
    package static func prefix(subscription: String, instance: String, output: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"#.utf8)
        JSONSerializer.appendString(subscription, to: &bytes)
        bytes.append(contentsOf: #","instance":"#.utf8)
        JSONSerializer.appendString(instance, to: &bytes)
        bytes.append(contentsOf: #","output":"#.utf8)
        JSONSerializer.appendString(output, to: &bytes)
        bytes.append(contentsOf: #","seq":"#.utf8)
        return bytes
    }

    /// The most bytes ``write(prefix:seq:encodedValue:replay:into:)`` writes for a prefix of
    /// `prefixBytes` and a value (or patch) of `valueBytes`.
    @inlinable
    package static func maximumByteCount(prefixBytes: Int, valueBytes: Int) -> Int {
        // The replay tail is the longest tail.
        prefixBytes + JSONByteWriter.maximumDigitsByteCount + valueKey.utf8CodeUnitCount + valueBytes + replayTail.utf8CodeUnitCount
    }

    /// Writes one whole notification into `buffer` (at least ``maximumByteCount(prefixBytes:valueBytes:)``
    /// bytes long): `prefix`, `seq`, the encoded `value`, and `replay` when true. Returns the
    /// number of bytes written.
    @inlinable
    package static func write(
        prefix: [UInt8], seq: Int64, encodedValue: [UInt8], replay: Bool, into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        write(prefix: prefix, seq: seq, key: valueKey, body: encodedValue, tail: replay ? replayTail : tail, into: buffer)
    }

    /// The most bytes ``write(prefix:seq:integerValue:replay:into:)`` writes for a prefix of
    /// `prefixBytes`.
    @inlinable
    package static func maximumIntegerByteCount(prefixBytes: Int) -> Int {
        maximumByteCount(prefixBytes: prefixBytes, valueBytes: JSONByteWriter.maximumDigitsByteCount)
    }

    /// Writes one whole notification whose value is the integer `value`, its digits written in
    /// place: the bytes of ``write(prefix:seq:encodedValue:replay:into:)`` for the value's
    /// encoding, without encoding it first. `buffer` holds at least
    /// ``maximumIntegerByteCount(prefixBytes:)`` bytes. Returns the number of bytes written.
    @inlinable
    package static func write(
        prefix: [UInt8], seq: Int64, integerValue value: Int64, replay: Bool, into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        precondition(buffer.count >= maximumIntegerByteCount(prefixBytes: prefix.count))
        var cursor = JSONByteWriter.copy(prefix, to: base)
        cursor = JSONByteWriter.writeDigits(seq, to: cursor)
        cursor = JSONByteWriter.copy(valueKey, to: cursor)
        cursor = JSONByteWriter.writeDigits(value, to: cursor)
        cursor = JSONByteWriter.copy(replay ? replayTail : tail, to: cursor)
        return cursor - base
    }

    /// Writes one whole notification carrying an RFC 6902 `patch` (already encoded) instead of
    /// a value: `prefix`, `seq`, `,"patch":` and the patch. Never marked `replay`. Returns the
    /// number of bytes written.
    @inlinable
    package static func write(
        prefix: [UInt8], seq: Int64, encodedPatch: [UInt8], into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        write(prefix: prefix, seq: seq, key: patchKey, body: encodedPatch, tail: tail, into: buffer)
    }

    /// Appends one whole notification: `prefix`, `seq`, the encoded `value`, and `replay`
    /// when true (the bytes of ``write(prefix:seq:encodedValue:replay:into:)``).
    @inlinable
    package static func append(
        prefix: [UInt8], seq: Int64, encodedValue: [UInt8], replay: Bool, to buffer: inout [UInt8]
    ) {
        let capacity = maximumByteCount(prefixBytes: prefix.count, valueBytes: encodedValue.count)
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { raw in
            let count = write(prefix: prefix, seq: seq, encodedValue: encodedValue, replay: replay, into: raw)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    /// Appends one whole notification carrying an RFC 6902 `patch` (the bytes of
    /// ``write(prefix:seq:encodedPatch:into:)``).
    @inlinable
    package static func append(prefix: [UInt8], seq: Int64, encodedPatch: [UInt8], to buffer: inout [UInt8]) {
        let capacity = maximumByteCount(prefixBytes: prefix.count, valueBytes: encodedPatch.count)
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { raw in
            let count = write(prefix: prefix, seq: seq, encodedPatch: encodedPatch, into: raw)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    @usableFromInline static let patchKey: StaticString = #","patch":"#
    @usableFromInline static let valueKey: StaticString = #","value":"#
    @usableFromInline static let tail: StaticString = "}}"
    @usableFromInline static let replayTail: StaticString = #","replay":true}}"#

    @inlinable
    static func write(
        prefix: [UInt8], seq: Int64, key: StaticString, body: [UInt8], tail: StaticString,
        into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        precondition(buffer.count >= maximumByteCount(prefixBytes: prefix.count, valueBytes: body.count))
        var cursor = JSONByteWriter.copy(prefix, to: base)
        cursor = JSONByteWriter.writeDigits(seq, to: cursor)
        cursor = JSONByteWriter.copy(key, to: cursor)
        cursor = JSONByteWriter.copy(body, to: cursor)
        cursor = JSONByteWriter.copy(tail, to: cursor)
        return cursor - base
    }
}
