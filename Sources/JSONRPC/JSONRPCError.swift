import JSONCore

/// The `error` member of a JSON-RPC response: code, message, optional data.
///
/// The decoder's two factories put the code's symbolic name in `data.name`, as vmd's wire
/// contract requires of every error; the errors vmd itself sends are built by VMProtocol's
/// `WireError` from its table of codes and names.
public struct JSONRPCError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: JSONRPCErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: JSONRPCErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// An error whose `data` is `{"name": name}` plus `extra` members.
    public init(code: JSONRPCErrorCode, name: String, message: String, extra: JSONObject = [:]) {
        var data: JSONObject = ["name": .string(name)]
        for (key, value) in extra { data[key] = value }
        self.init(code: code, message: message, data: .object(data))
    }

    /// -32700, with the byte offset of the problem in `data.offset`.
    public static func parseError(_ error: JSONParseError) -> JSONRPCError {
        JSONRPCError(code: .parseError, name: "parseError", message: "invalid JSON: \(error)",
                     extra: ["offset": .integer(Int64(error.offset))])
    }

    /// -32600 with a message saying what is wrong with the request.
    public static func invalidRequest(_ message: String) -> JSONRPCError {
        JSONRPCError(code: .invalidRequest, name: "invalidRequest", message: message)
    }

    /// The error as its JSON object `{"code", "message", "data"?}`.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["code": .integer(Int64(code.rawValue)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
