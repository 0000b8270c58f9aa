import JSONCore

/// `vm.send {instance, input, value?}` → `null`; may be a notification (fire-and-forget).
public enum VMSendMethod: VMMethod {
    public static let name = "vm.send"

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var input: String
        /// `nil` when omitted: the input schema's default, else `null`.
        public var value: JSONValue?

        public init(instance: String, input: String, value: JSONValue? = nil) {
            self.instance = instance
            self.input = input
            self.value = value
        }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance", "input", "value"], method: VMSendMethod.name)
            instance = try reader.string("instance")
            input = try reader.string("input", nonEmpty: true)
            value = reader.value("value")
        }

        /// The params object (a client's side); `value` only when given.
        public var jsonValue: JSONValue {
            var object: JSONObject = ["instance": .string(instance), "input": .string(input)]
            if let value { object["value"] = value }
            return .object(object)
        }
    }

    /// `null`.
    package static let result: JSONValue = .null
}
