/// Turns what a `Decodable` implementation threw (a standard `DecodingError`, or any error
/// of its own) into the ``JSONDecodingError`` vmd reports, keeping the path.
enum DecodingFailure {
    static func converting<T>(_ error: any Error, decoding type: T.Type, value: JSONValue, at codingPath: [any CodingKey]) -> JSONDecodingError {
        if let error = error as? JSONDecodingError { return error }
        let here = CodingPathKey.jsonPath(codingPath)
        guard let decodingError = error as? DecodingError else {
            return JSONDecodingError(path: here, expected: expectation(T.self), got: brief(value), detail: "\(error)")
        }
        switch decodingError {
        case .typeMismatch(let wanted, let context):
            let path = CodingPathKey.jsonPath(context.codingPath)
            return JSONDecodingError(path: path, expected: "\(wanted)", got: path == here ? value.typeName : "another type",
                                     detail: context.debugDescription)
        case .valueNotFound(let wanted, let context):
            return JSONDecodingError(path: CodingPathKey.jsonPath(context.codingPath), expected: "\(wanted)", got: "null",
                                     detail: context.debugDescription)
        case .keyNotFound(let key, let context):
            return JSONDecodingError(path: CodingPathKey.jsonPath(context.codingPath + [key]), expected: "a value", got: "missing",
                                     detail: "required member \"\(key.stringValue)\" is missing")
        case .dataCorrupted(let context):
            let path = CodingPathKey.jsonPath(context.codingPath)
            return JSONDecodingError(path: path, expected: expectation(T.self), got: path == here ? brief(value) : "a value",
                                     detail: context.debugDescription)
        @unknown default:
            return JSONDecodingError(path: here, expected: expectation(T.self), got: brief(value), detail: "\(error)")
        }
    }

    /// "one of "red", "green"" for an enumeration whose cases can be listed, else "a valid Name".
    static func expectation<T>(_ type: T.Type) -> String {
        if let cases = EnumerationCases.values(of: T.self), !cases.isEmpty {
            return "one of " + cases.map { $0.encodedString() }.joined(separator: ", ")
        }
        return "a valid \(T.self)"
    }

    /// Scalars verbatim (long strings by length), containers by type.
    static func brief(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.typeName
        case .string(let text) where text.unicodeScalars.count > 40: return "a string of \(text.unicodeScalars.count) characters"
        default: return value.encodedString()
        }
    }
}
