import JSONCore
import JSONRPC

/// `vm.error {method, instance?, input?, action?, error}` (daemon → client): a `vm.send` or
/// `vm.execute` sent as a notification failed. A fire-and-forget call never fails silently.
public enum VMErrorNotification {
    public static let name = "vm.error"

    /// Appends the notification. `instance`, `input` and `action` are copied from the failed
    /// call's params when it had them.
    package static func append(
        method: String, instance: String?, input: String?, action: String?, error: WireError, to buffer: inout [UInt8]
    ) {
        JSONRPCEncoder.appendNotification(method: name, to: &buffer) { params in
            params.member("method", string: method)
            if let instance { params.member("instance", string: instance) }
            if let input { params.member("input", string: input) }
            if let action { params.member("action", string: action) }
            params.member("error", error.jsonValue)
        }
    }
}
