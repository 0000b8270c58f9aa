import JSONCore

/// `vm.get {instance, output}` → `{value}` (state outputs only).
public enum VMGetMethod {
    public static let name = "vm.get"

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var output: String

        public init(instance: String, output: String) {
            self.instance = instance
            self.output = output
        }

        public init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance", "output"], method: VMGetMethod.name)
            instance = try reader.string("instance")
            output = try reader.string("output", nonEmpty: true)
        }
    }

    /// `{"value": value}`.
    public static func result(value: JSONValue) -> JSONValue { ["value": value] }
}
