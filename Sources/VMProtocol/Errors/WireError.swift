import JSONCore
import JSONRPC

/// An error that knows which wire error it is. Domain errors (the view-model kit's, the
/// server's own) conform; ``WireError/init(_:)`` turns any error into a wire error in ONE
/// place, and anything that does not conform becomes -32603 `internalError`.
package protocol WireErrorConvertible: Error {
    /// The `{code, message, data}` this error is on the wire.
    var wireError: WireError { get }
}

/// One JSON-RPC `error` object as vmd sends it: a code, one sentence a person can act on, and
/// `data`, an object whose first member `name` is the code's symbolic name (PROTOCOL.md §10).
package struct WireError: Error, Sendable, Hashable, WireErrorConvertible, CustomStringConvertible {
    /// `error.code`.
    package var code: VMErrorCode
    /// `error.message`: what happened and what to do.
    package var message: String
    /// `error.data`: `name` first, then the members listed for the code.
    package var data: JSONObject

    /// An error of `code`; `data` gets `name` (from `code`) first, then `extra`'s members.
    package init(code: VMErrorCode, message: String, extra: JSONObject = [:]) {
        var data = JSONObject(minimumCapacity: extra.count + 1)
        data.append(uniqueKey: "name", .string(code.name))
        for (key, value) in extra where key != "name" { data.append(uniqueKey: key, value) }
        self.code = code
        self.message = message
        self.data = data
    }

    /// The wire form of any error: a ``WireErrorConvertible``'s own, anything else -32603.
    /// This is the one place where domain errors become wire errors.
    package init(_ error: any Error) {
        if let convertible = error as? any WireErrorConvertible {
            self = convertible.wireError
        } else {
            self = .internalError()
        }
    }

    package var wireError: WireError { self }

    /// The symbolic name, as carried in `data.name`.
    package var name: String { data["name"]?.stringValue ?? "internalError" }

    /// `{"code", "message", "data"}` as a JSON value (for `vm.error` and tests).
    package var jsonValue: JSONValue {
        ["code": .integer(Int64(code.number)), "message": .string(message), "data": .object(data)]
    }

    /// The same error in JSONRPC's type (for its encoder).
    package var jsonRPCError: JSONRPCError {
        JSONRPCError(code: code.jsonRPCCode, message: message, data: .object(data))
    }

    package var description: String { "\(code): \(message)" }
}
