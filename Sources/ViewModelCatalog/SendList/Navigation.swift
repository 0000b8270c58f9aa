import JSONCore

/// A new scene to present: the event SendList's `navigate` output carries,
/// `{"type": "SendReceipt", "instance": "sendreceipt-1"}`. A client shows the scene by
/// subscribing to that instance.
public struct Navigation: JSONConvertible, Sendable, Equatable {
    /// The view-model type of the scene.
    public let type: String
    /// The instance to subscribe to.
    public let instance: String

    public init(type: String, instance: String) {
        self.type = type
        self.instance = instance
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        type = try members.decode("type")
        instance = try members.decode("instance")
    }

    public var jsonValue: JSONValue { ["type": .string(type), "instance": .string(instance)] }

    public static var jsonSchema: JSONValue {
        // The instance id is made up by the run: a tape's replay matches it by place.
        JSONSchemaBuilder.object(["type": ["type": "string"], "instance": JSONSchemaBuilder.runId(["type": "string"])], required: ["type", "instance"])
    }
}
