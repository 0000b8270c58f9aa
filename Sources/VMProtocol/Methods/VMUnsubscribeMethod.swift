import JSONCore

/// `vm.unsubscribe {subscription}` → `{unsubscribed: true}`.
public enum VMUnsubscribeMethod: VMMethod {
    public static let name = "vm.unsubscribe"

    public struct Params: Sendable, Hashable {
        public var subscription: String

        public init(subscription: String) { self.subscription = subscription }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["subscription"], method: VMUnsubscribeMethod.name)
            subscription = try reader.string("subscription", nonEmpty: true)
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["subscription": .string(subscription)] }
    }

    /// `{"unsubscribed": true}`.
    package static let result: JSONValue = ["unsubscribed": true]
}
