import JSONCore

/// `vm.subscribe {instance, outputs?, replay?, patches?}` → `{subscription}`, then `vm.output` notifications.
public enum VMSubscribeMethod: VMMethod {
    public static let name = "vm.subscribe"

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var options: SubscribeOptions

        public init(instance: String, options: SubscribeOptions = SubscribeOptions()) {
            self.instance = instance
            self.options = options
        }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance", "outputs", "replay", "patches"], method: VMSubscribeMethod.name)
            instance = try reader.string("instance")
            options = try SubscribeOptions(reading: reader)
        }

        /// The params object (a client's side): `instance`, then the options that differ
        /// from the defaults.
        public var jsonValue: JSONValue {
            var object: JSONObject = ["instance": .string(instance)]
            options.appendMembers(to: &object)
            return .object(object)
        }
    }

    /// `{"subscription": id}`: the id `vm.output` notifications and `vm.unsubscribe` name.
    public struct Result: Sendable, Hashable {
        public var subscription: String

        package init(subscription: String) { self.subscription = subscription }

        /// Reads the result (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            subscription = try JSONObjectDecoder(json).decode("subscription")
        }

        public var jsonValue: JSONValue { ["subscription": .string(subscription)] }
    }

    /// `{"subscription": id}`.
    package static func result(subscription: String) -> JSONValue { Result(subscription: subscription).jsonValue }
}
