/// The scalar conversions of ``ValueDecoder``, with range checks and vmd's error wording
/// (the same as the hand-written `JSONConvertible` conformances').
enum ScalarDecoding {
    /// A standard scalar of type `T` decoded from `value`, or `nil` when `T` is not one.
    static func decode<T>(_ type: T.Type, from value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> T? {
        if T.self == String.self { return try string(value, at: path()) as? T }
        if T.self == Bool.self { return try bool(value, at: path()) as? T }
        if T.self == Int.self { return try integer(Int.self, value, at: path()) as? T }
        if T.self == Double.self { return try double(value, at: path()) as? T }
        if T.self == Int64.self { return try integer(Int64.self, value, at: path()) as? T }
        if T.self == Int8.self { return try integer(Int8.self, value, at: path()) as? T }
        if T.self == Int16.self { return try integer(Int16.self, value, at: path()) as? T }
        if T.self == Int32.self { return try integer(Int32.self, value, at: path()) as? T }
        if T.self == UInt.self { return try integer(UInt.self, value, at: path()) as? T }
        if T.self == UInt8.self { return try integer(UInt8.self, value, at: path()) as? T }
        if T.self == UInt16.self { return try integer(UInt16.self, value, at: path()) as? T }
        if T.self == UInt32.self { return try integer(UInt32.self, value, at: path()) as? T }
        if T.self == UInt64.self { return try integer(UInt64.self, value, at: path()) as? T }
        if T.self == Float.self { return try float(value, at: path()) as? T }
        return nil
    }

    static func bool(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Bool {
        guard case .bool(let flag) = value else { throw .typeMismatch(expected: "boolean", got: value, at: path()) }
        return flag
    }

    static func string(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> String {
        guard case .string(let text) = value else { throw .typeMismatch(expected: "string", got: value, at: path()) }
        return text
    }

    static func double(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Double {
        guard let number = value.doubleValue else { throw .typeMismatch(expected: "number", got: value, at: path()) }
        return number
    }

    static func float(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Float {
        let number = try double(value, at: path())
        let narrowed = Float(number)
        guard narrowed.isFinite else {
            throw JSONDecodingError(path: path(), expected: "number", got: "number \(value)", detail: "value \(value) does not fit in Float")
        }
        return narrowed
    }

    /// An integer of any width: whole numbers only (`2.0` counts), within the type's range.
    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> I {
        // Beyond the Int64 range only a double can stand for the number (always a whole one
        // there); only unsigned types up to 2^64 take it.
        if case .double(let number) = value, number < -9_223_372_036_854_775_808.0 || number >= 9_223_372_036_854_775_808.0 {
            if number < 18_446_744_073_709_551_616.0, number >= 0, let fitting = I(exactly: UInt64(number)) { return fitting }
            throw JSONDecodingError(path: path(), expected: "integer", got: "number \(value)", detail: "value \(value) does not fit in \(I.self)")
        }
        guard let wide = value.int64Value else {
            if value.isNumber {
                throw JSONDecodingError(path: path(), expected: "integer", got: "number \(value)", detail: "not a whole number within 64 bits")
            }
            throw .typeMismatch(expected: "integer", got: value, at: path())
        }
        guard let fitting = I(exactly: wide) else {
            throw JSONDecodingError(path: path(), expected: "integer", got: "number \(wide)", detail: "value \(wide) does not fit in \(I.self)")
        }
        return fitting
    }
}
