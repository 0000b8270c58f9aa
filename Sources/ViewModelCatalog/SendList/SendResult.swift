import JSONCore

/// What SendList's `send` returns: the stored upload's id and the scene it opened,
/// `{"uploadId": 1, "type": "SendReceipt", "instance": "sendreceipt-1"}`.
public struct SendResult: JSONConvertible, Sendable, Equatable {
    /// The stored upload's id.
    public let uploadId: Int
    /// The receipt scene it opened.
    public let navigation: Navigation

    public init(uploadId: Int, navigation: Navigation) {
        self.uploadId = uploadId
        self.navigation = navigation
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        uploadId = try members.decode("uploadId")
        navigation = Navigation(type: try members.decode("type"), instance: try members.decode("instance"))
    }

    public var jsonValue: JSONValue {
        ["uploadId": uploadId.jsonValue, "type": .string(navigation.type), "instance": .string(navigation.instance)]
    }

    public static var jsonSchema: JSONValue {
        JSONSchemaBuilder.object(
            // Both ids are made up by the run: a tape's replay matches them by place.
            ["uploadId": JSONSchemaBuilder.runId(["type": "integer", "minimum": 1]), "type": ["type": "string"],
             "instance": JSONSchemaBuilder.runId(["type": "string"])],
            required: ["uploadId", "type", "instance"])
    }
}
