import JSONCore

/// `vm.unsubscribe {subscription}` → `{unsubscribed: true}`.
public enum VMUnsubscribeMethod {
    public static let name = "vm.unsubscribe"

    public struct Params: Sendable, Hashable {
        public var subscription: String

        public init(subscription: String) { self.subscription = subscription }

        public init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["subscription"], method: VMUnsubscribeMethod.name)
            subscription = try reader.string("subscription", nonEmpty: true)
        }
    }

    /// `{"unsubscribed": true}`.
    public static let result: JSONValue = ["unsubscribed": true]
}
