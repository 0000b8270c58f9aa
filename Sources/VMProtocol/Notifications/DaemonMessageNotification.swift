import JSONCore

/// `daemon.message {monitor, seq, direction, connection, message}` (daemon → client): one
/// message some connection received (`"in"`) or was sent (`"out"`), reported to a monitor.
///
/// Like `vm.output` it is spliced from bytes: the message is already compact JSON (what the
/// daemon sent, or the re-encoded frame it received), copied in without being parsed again.
public enum DaemonMessageNotification {
    public static let name = "daemon.message"

    /// Which way the reported message went.
    package enum Direction: String, Sendable, Hashable {
        case `in`
        case out
    }

    /// `{"jsonrpc":"2.0","method":"daemon.message","params":{"monitor":…,"seq":`
    package static func prefix(monitor: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: #"{"jsonrpc":"2.0","method":"daemon.message","params":{"monitor":"#.utf8)
        JSONSerializer.appendString(monitor, to: &bytes)
        bytes.append(contentsOf: #","seq":"#.utf8)
        return bytes
    }

    /// Appends one whole notification; `message` must be one compact JSON value.
    package static func append(
        prefix: [UInt8], seq: Int64, direction: Direction, connection: UInt64, message: UnsafeRawBufferPointer,
        to buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: prefix)
        JSONSerializer.appendInteger(seq, to: &buffer)
        buffer.append(contentsOf: direction == .in ? #","direction":"in","connection":"#.utf8 : #","direction":"out","connection":"#.utf8)
        JSONSerializer.appendInteger(Int64(truncatingIfNeeded: connection), to: &buffer)
        buffer.append(contentsOf: #","message":"#.utf8)
        buffer.append(contentsOf: message)
        buffer.append(contentsOf: "}}".utf8)
    }
}
