import JSONCore
import JSONRPC

/// `vm.overflow {subscription, instance, lost: {from, to}}` (daemon → client): the seqs
/// `from…to` (inclusive) were consumed but never written because the connection's outbound
/// buffer was full. The only way a seq is skipped.
public enum VMOverflowNotification {
    public static let name = "vm.overflow"

    package static func append(subscription: String, instance: String, from: Int64, to: Int64, to buffer: inout [UInt8]) {
        JSONRPCEncoder.appendNotification(method: name, to: &buffer) { params in
            params.member("subscription", string: subscription)
            params.member("instance", string: instance)
            params.objectMember("lost") { lost in
                lost.member("from", integer: from)
                lost.member("to", integer: to)
            }
        }
    }
}
