import JSONCore

/// `$/cancelRequest {id}` (client → daemon, LSP's): cancels the pending `vm.execute` with
/// that id on the same connection; unknown or finished ids are ignored.
public enum CancelRequestNotification {
    public static let name = "$/cancelRequest"

    package struct Params: Sendable, Hashable {
        /// The id of the request to cancel: a string or a number.
        package var id: JSONValue

        package init(id: JSONValue) { self.id = id }

        package init(_ params: JSONValue?) throws(WireError) {
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
