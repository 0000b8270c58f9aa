import JSONCore

/// `vm.output {subscription, instance, output, seq, value, replay?}` (daemon → client), or
/// on a subscription with `patches`, `{subscription, instance, output, seq, patch}`.
///
/// Built on the hot path without a ``JSONValue``: each (subscription, output) keeps its
/// ``prefix(subscription:instance:output:)`` bytes, the server encodes each value once, and a
/// notification is prefix + seq digits + `,"value":` + value bytes + `}}`. Member order is
/// not significant on the wire (PROTOCOL.md §3).
public enum VMOutputNotification {
    public static let name = "vm.output"

    /// `{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":…,"instance":…,"output":…,"seq":`
    public static func prefix(subscription: String, instance: String, output: String) -> [UInt8] {
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

    /// Appends one whole notification: `prefix`, `seq`, the encoded `value`, and `replay`
    /// when true.
    @inlinable
    public static func append(
        prefix: [UInt8], seq: Int64, encodedValue: [UInt8], replay: Bool, to buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: prefix)
        JSONSerializer.appendInteger(seq, to: &buffer)
        buffer.append(contentsOf: valueKey)
        buffer.append(contentsOf: encodedValue)
        if replay { buffer.append(contentsOf: replayTail) } else { buffer.append(contentsOf: tail) }
    }

    /// Appends one whole notification carrying an RFC 6902 `patch` (already encoded) instead of
    /// a value: `prefix`, `seq`, `,"patch":` and the patch. Never marked `replay`.
    @inlinable
    public static func append(prefix: [UInt8], seq: Int64, encodedPatch: [UInt8], to buffer: inout [UInt8]) {
        buffer.append(contentsOf: prefix)
        JSONSerializer.appendInteger(seq, to: &buffer)
        buffer.append(contentsOf: patchKey)
        buffer.append(contentsOf: encodedPatch)
        buffer.append(contentsOf: tail)
    }

    @usableFromInline static let patchKey: [UInt8] = Array(#","patch":"#.utf8)
    @usableFromInline static let valueKey: [UInt8] = Array(#","value":"#.utf8)
    @usableFromInline static let tail: [UInt8] = Array("}}".utf8)
    @usableFromInline static let replayTail: [UInt8] = Array(#","replay":true}}"#.utf8)
}
