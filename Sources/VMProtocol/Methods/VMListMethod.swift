import JSONCore

/// `vm.list {}` → `{instances: [{instance, type, scope, subscribers, parent?}]}` in creation order.
public enum VMListMethod {
    public static let name = "vm.list"

    /// Checks the (empty) params.
    public static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// One entry of the list (`InstanceSummary`).
    public struct Summary: Sendable, Hashable {
        public var instance: String
        public var type: String
        public var scope: InstanceScope
        public var subscribers: Int
        public var parent: String?

        public init(instance: String, type: String, scope: InstanceScope, subscribers: Int, parent: String? = nil) {
            self.instance = instance
            self.type = type
            self.scope = scope
            self.subscribers = subscribers
            self.parent = parent
        }

        public var jsonValue: JSONValue {
            var object: JSONObject = [
                "instance": .string(instance), "type": .string(type), "scope": .string(scope.rawValue),
                "subscribers": .integer(Int64(subscribers)),
            ]
            if let parent { object["parent"] = .string(parent) }
            return .object(object)
        }
    }

    /// `{"instances": [...]}`.
    public static func result(_ instances: [Summary]) -> JSONValue {
        ["instances": .array(instances.map(\.jsonValue))]
    }
}
