/// The JSON forms of every case of a `CaseIterable & Encodable` type (an enumeration with
/// raw values, typically): the schema's `enum` list, and the "one of …" of an error.
enum EnumerationCases {
    /// `nil` when `type` cannot list its cases.
    static func values<T>(of type: T.Type) -> [JSONValue]? {
        guard let iterable = T.self as? any (CaseIterable & Encodable).Type else { return nil }
        return encodedCases(iterable)
    }

    /// The first case, as a `T` (the schema probe's stand-in value).
    static func first<T>(of type: T.Type) -> T? {
        guard let iterable = T.self as? any CaseIterable.Type else { return nil }
        return firstCase(iterable) as? T
    }

    private static func encodedCases<C: CaseIterable & Encodable>(_ type: C.Type) -> [JSONValue] {
        let encoder = JSONValueEncoder()
        return C.allCases.compactMap { try? encoder.encode($0) }
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? {
        C.allCases.first
    }
}
