import JSONCore

/// `vm.subscribe {instance, outputs?, replay?, patches?}` → `{subscription}`, then `vm.output` notifications.
public enum VMSubscribeMethod {
    public static let name = "vm.subscribe"

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var options: SubscribeOptions

        public init(instance: String, options: SubscribeOptions = SubscribeOptions()) {
            self.instance = instance
            self.options = options
        }

        public init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance", "outputs", "replay", "patches"], method: VMSubscribeMethod.name)
            instance = try reader.string("instance")
            options = try SubscribeOptions(reading: reader)
        }
    }

    /// `{"subscription": id}`.
    public static func result(subscription: String) -> JSONValue { ["subscription": .string(subscription)] }
}
