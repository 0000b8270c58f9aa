import JSONCore
import JSONRPC

/// `vm.closed {instance, subscription, reason}` (daemon → client): the last notification of a
/// subscription whose instance was destroyed.
public enum VMClosedNotification {
    public static let name = "vm.closed"

    /// Appends the notification; `reason` is a `CloseReason` raw value ("destroyed", …).
    package static func append(instance: String, subscription: String, reason: String, to buffer: inout [UInt8]) {
        JSONRPCEncoder.appendNotification(method: name, to: &buffer) { params in
            params.member("instance", string: instance)
            params.member("subscription", string: subscription)
            params.member("reason", string: reason)
        }
    }
}
