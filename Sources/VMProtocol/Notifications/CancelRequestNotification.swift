import JSONCore

/// `$/cancelRequest {id}` (client → daemon, LSP's): cancels the pending `vm.execute` with
/// that id on the same connection; unknown or finished ids are ignored.
public enum CancelRequestNotification {
    public static let name = "$/cancelRequest"

    public struct Params: Sendable, Hashable {
        /// The id of the request to cancel: a string or a number.
        public var id: JSONValue

        public init(id: JSONValue) { self.id = id }

        public init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["id"], method: CancelRequestNotification.name)
            guard let id = reader.value("id") else {
                throw WireError.invalidParams(path: "/id", expected: "string or number", got: "missing")
            }
            guard id.stringValue != nil || id.isNumber else {
                throw WireError.invalidParams(path: "/id", expected: "string or number", got: id.typeName)
            }
            self.id = id
        }
    }
}
