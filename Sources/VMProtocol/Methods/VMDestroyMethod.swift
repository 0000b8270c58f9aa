import JSONCore

/// `vm.destroy {instance}` → `{destroyed: true}`.
public enum VMDestroyMethod: VMMethod {
    public static let name = "vm.destroy"

    public struct Params: Sendable, Hashable {
        public var instance: String

        public init(instance: String) { self.instance = instance }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance"], method: VMDestroyMethod.name)
            instance = try reader.string("instance")
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["instance": .string(instance)] }
    }

    /// `{"destroyed": true}`.
    package static let result: JSONValue = ["destroyed": true]
}
