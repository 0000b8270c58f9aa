import JSONCore

/// `vm.list {}` → `{instances: [{instance, type, scope, subscribers, parent?}]}` in creation order.
public enum VMListMethod: VMMethod {
    public static let name = "vm.list"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// One entry of the list (`InstanceSummary`).
    public struct Summary: Sendable, Hashable {
        public var instance: String
        public var type: String
        public var scope: InstanceScope
        public var subscribers: Int
        public var parent: String?
        /// Whether the instance is restored at the daemon's next start.
        public var durable: Bool

        package init(instance: String, type: String, scope: InstanceScope, subscribers: Int, parent: String? = nil, durable: Bool = false) {
            self.instance = instance
            self.type = type
            self.scope = scope
            self.subscribers = subscribers
            self.parent = parent
            self.durable = durable
        }

        /// Reads one element of the result's `instances` (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            instance = try members.decode("instance")
            type = try members.decode("type")
            scope = try members.decodeCase("scope")
            subscribers = try members.decode("subscribers", default: 0)
            parent = try members.decode("parent")
            durable = try members.decode("durable", default: false)
        }

        public var jsonValue: JSONValue {
            var object: JSONObject = [
                "instance": .string(instance), "type": .string(type), "scope": .string(scope.rawValue),
                "subscribers": .integer(Int64(subscribers)),
            ]
            if let parent { object["parent"] = .string(parent) }
            if durable { object["durable"] = true }
            return .object(object)
        }
    }

    /// `{"instances": [...]}`.
    package static func result(_ instances: [Summary]) -> JSONValue {
        ["instances": .array(instances.map(\.jsonValue))]
    }

    /// Reads the result's `instances` (a client's side); an error names the element's index.
    public static func decodeResult(_ json: JSONValue) throws(JSONDecodingError) -> [Summary] {
        try JSONObjectDecoder(json).decode("instances")
    }
}
