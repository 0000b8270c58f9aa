import JSONCore
import ReactiveCore
import ViewModelKit

/// The scene SendList opens after a successful send (the MVVM articles' "present a new scene"):
/// what was sent, read-only. SendList creates it as its child, so it is destroyed with
/// the SendList; a client may also create one directly with the same arguments.
public struct SendReceipt: ViewModel {
    public static let summary = "What a SendList sent: the upload's id, its message and its recipients."

    /// `{"uploadId": integer ≥ 1, "message": string, "recipients": [string]}`, all required.
    public struct Arguments: JSONConvertible, Sendable, Equatable {
        /// What was sent.
        public var upload: Upload

        public init(_ upload: Upload) {
            self.upload = upload
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            try members.rejectUnknownMembers(allowed: ["uploadId", "message", "recipients"])
            upload = Upload(id: try members.decode("uploadId"), message: try members.decode("message"), recipients: try members.decode("recipients"))
        }

        public var jsonValue: JSONValue {
            ["uploadId": upload.id.jsonValue, "message": .string(upload.message), "recipients": upload.recipients.jsonValue]
        }

        public static var jsonSchema: JSONValue {
            JSONSchemaBuilder.object(
                [
                    "uploadId": ["type": "integer", "minimum": 1],
                    "message": ["type": "string"],
                    "recipients": JSONSchemaBuilder.array(of: ["type": "string"]),
                ],
                required: ["uploadId", "message", "recipients"])
        }
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let uploadId = State<Int>("The id the store gave the upload.", initial: 0)
        public let message = State<String>("The message that was sent.", initial: "")
        public let recipients = State<[String]>("Who it was sent to.", initial: [])

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let upload = context.args.upload
        ports.uploadId.accept(upload.id)
        ports.message.accept(upload.message)
        ports.recipients.accept(upload.recipients)
    }
}
