/// The standard scalar types as the schema probe sees them: a schema and a stand-in value.
enum ScalarProbe {
    static func probe<T>(_ type: T.Type) -> (schema: JSONValue, value: T)? {
        guard let (schema, value) = entry(T.self), let typed = value as? T else { return nil }
        return (schema, typed)
    }

    private static func entry<T>(_ type: T.Type) -> (JSONValue, Any)? {
        if T.self == String.self { return (["type": "string"], "") }
        if T.self == Bool.self { return (["type": "boolean"], false) }
        if T.self == Int.self { return (["type": "integer"], 0 as Int) }
        if T.self == Int64.self { return (["type": "integer"], 0 as Int64) }
        if T.self == Double.self { return (["type": "number"], 0 as Double) }
        if T.self == Float.self { return (["type": "number"], 0 as Float) }
        if T.self == Int8.self { return (bounded(Int8.self), 0 as Int8) }
        if T.self == Int16.self { return (bounded(Int16.self), 0 as Int16) }
        if T.self == Int32.self { return (bounded(Int32.self), 0 as Int32) }
        if T.self == UInt8.self { return (bounded(UInt8.self), 0 as UInt8) }
        if T.self == UInt16.self { return (bounded(UInt16.self), 0 as UInt16) }
        if T.self == UInt32.self { return (bounded(UInt32.self), 0 as UInt32) }
        if T.self == UInt.self { return (["type": "integer", "minimum": 0], 0 as UInt) }
        if T.self == UInt64.self { return (["type": "integer", "minimum": 0], 0 as UInt64) }
        return nil
    }

    /// `{"type": "integer", "minimum": min, "maximum": max}` of an integer narrower than 64 bits.
    private static func bounded<I: FixedWidthInteger>(_ type: I.Type) -> JSONValue {
        ["type": "integer", "minimum": .integer(Int64(I.min)), "maximum": .integer(Int64(I.max))]
    }
}
