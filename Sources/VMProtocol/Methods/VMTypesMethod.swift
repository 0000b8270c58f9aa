import JSONCore

/// `vm.types {type?}` → `{types: [TypeDescription]}` in name order.
public enum VMTypesMethod: VMMethod {
    public static let name = "vm.types"

    public struct Params: Sendable, Hashable {
        /// Only this type; `nil` for all.
        public var type: String?

        public init(type: String? = nil) { self.type = type }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["type"], method: VMTypesMethod.name)
            type = try reader.optionalString("type", nonEmpty: true)
        }

        /// The params object (a client's side); `nil` (no params) when all types are asked for.
        public var jsonValue: JSONValue? { type.map { ["type": .string($0)] } }
    }

    /// `{"types": descriptions}`.
    package static func result(types: [JSONValue]) -> JSONValue { ["types": .array(types)] }
}
