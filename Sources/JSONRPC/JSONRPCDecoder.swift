import JSONCore

/// Parses one frame and classifies it by JSON-RPC 2.0's rules.
///
/// - Not JSON → ``JSONRPCFrame/rejected(_:)`` with -32700.
/// - `[]` → ``JSONRPCFrame/rejected(_:)`` with -32600.
/// - A batch → one ``JSONRPCEntry`` per element, each classified alone.
/// - An element that is not a valid request, notification or response → `.invalid` with
///   -32600 and the id when one could be read (`null` otherwise).
///
/// Rules: `jsonrpc` must be exactly `"2.0"`; `id`, when present, a string, number or null
/// (present-but-null is a request, absent is a notification); `method` a string; `params`,
/// when present, an object or array. Responses need an `id` and exactly one of `result` or
/// `error` (an object with an integer `code` and a string `message`). Unknown members are
/// ignored. Number ids keep their literal text (see ``RequestID``).
package enum JSONRPCDecoder {
    /// Classifies one frame of UTF-8 bytes.
    package static func decode(_ bytes: UnsafeRawBufferPointer, options: JSONParseOptions = .default) -> JSONRPCFrame {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, options: options)
        } catch {
            return .rejected(.parseError(error))
        }
        if case .array(let elements) = value {
            if elements.isEmpty { return .rejected(.invalidRequest("empty batch: send at least one request")) }
            var entries: [JSONRPCEntry] = []
            entries.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                entries.append(classify(element) { LiteralIDScanner.literalID(in: bytes, batchIndex: index) })
            }
            return .batch(entries)
        }
        return .single(classify(value) { LiteralIDScanner.literalID(in: bytes, batchIndex: nil) })
    }

    /// Classifies one frame held in any byte collection (`[UInt8]`, `ArraySlice<UInt8>`, …).
    package static func decode(_ bytes: some Collection<UInt8>, options: JSONParseOptions = .default) -> JSONRPCFrame {
        if let frame = bytes.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0), options: options) }) {
            return frame
        }
        return Array(bytes).withUnsafeBytes { decode($0, options: options) }
    }

    /// Classifies one already-parsed message. `literalID` supplies the source text of a
    /// non-integer number id (without it such ids are re-spelled in shortest form).
    package static func classify(_ value: JSONValue, literalID: () -> String? = { nil }) -> JSONRPCEntry {
        guard case .object(let object) = value else {
            return .invalid(id: .null, error: .invalidRequest("a JSON-RPC message must be an object, not \(value.typeName)"))
        }
        // The id first, so that every later complaint can carry it.
        var id: RequestID? = nil
        if let rawID = object["id"] {
            switch rawID {
            case .string(let text): id = .string(text)
            case .integer(let number): id = .integer(number)
            case .double: id = literalID().map(RequestID.numberLiteral) ?? RequestID(rawID) ?? .null
            case .null: id = .null
            default:
                return .invalid(id: .null, error: .invalidRequest("\"id\" must be a string, a number or null, not \(rawID.typeName)"))
            }
        }
        let replyID = id ?? .null
        func invalid(_ message: String) -> JSONRPCEntry {
            .invalid(id: replyID, error: .invalidRequest(message))
        }
        guard let version = object["jsonrpc"] else { return invalid("missing \"jsonrpc\": \"2.0\"") }
        guard version == "2.0" else { return invalid("\"jsonrpc\" must be \"2.0\", not \(version)") }

        if let methodValue = object["method"] {
            guard case .string(let method) = methodValue else {
                return invalid("\"method\" must be a string, not \(methodValue.typeName)")
            }
            let params = object["params"]
            if let params {
                switch params {
                case .object, .array: break
                default: return invalid("\"params\" must be an object or an array, not \(params.typeName)")
                }
            }
            if let id { return .message(.request(JSONRPCRequest(id: id, method: method, params: params))) }
            return .message(.notification(JSONRPCNotification(method: method, params: params)))
        }

        let result = object["result"], errorValue = object["error"]
        if result == nil, errorValue == nil {
            return invalid("missing \"method\" (a request) or \"result\"/\"error\" (a response)")
        }
        guard let id else { return invalid("a response must have an \"id\"") }
        if result != nil, errorValue != nil { return invalid("a response must not have both \"result\" and \"error\"") }
        if let result { return .message(.response(JSONRPCResponse(id: id, result: result))) }
        guard case .object(let errorObject)? = errorValue,
              let code = errorObject["code"]?.intValue,
              case .string(let message)? = errorObject["message"]
        else {
            return invalid("\"error\" must be an object with an integer \"code\" and a string \"message\"")
        }
        let error = JSONRPCError(code: JSONRPCErrorCode(code), message: message, data: errorObject["data"])
        return .message(.response(JSONRPCResponse(id: id, error: error)))
    }
}
