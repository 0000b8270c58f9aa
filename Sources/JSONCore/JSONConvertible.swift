/// A type that converts to and from ``JSONValue`` and describes itself with a JSON Schema.
///
/// This is how typed view-model inputs, outputs and actions cross the wire: decoding
/// reports precise errors (``JSONDecodingError`` with a path like `$.value.step`), and
/// ``jsonSchema`` is published as-is (JSON Schema 2020-12) in `vm.types`.
///
/// Conforming a struct takes three short members; ``JSONObjectDecoder`` and
/// ``JSONSchemaBuilder`` keep them one line per field:
///
/// ```swift
/// struct Credentials: JSONConvertible {
///     var email: String
///     var remember: Bool?
///
///     init(json: JSONValue) throws(JSONDecodingError) {
///         let members = try JSONObjectDecoder(json)
///         email = try members.decode("email")
///         remember = try members.decode("remember")      // Optional: may be missing or null
///     }
///
///     var jsonValue: JSONValue {
///         var object = JSONObject()
///         object.encode("email", email)
///         object.encodeIfPresent("remember", remember)
///         return .object(object)
///     }
///
///     static var jsonSchema: JSONValue {
///         JSONSchemaBuilder.object(["email": String.jsonSchema, "remember": Bool.jsonSchema], required: ["email"])
///     }
/// }
/// ```
public protocol JSONConvertible {
    /// Decodes a value, throwing an error whose path is relative to `json` (`$`).
    init(json: JSONValue) throws(JSONDecodingError)
    /// The JSON form of this value.
    var jsonValue: JSONValue { get }
    /// A JSON Schema (2020-12) that every ``jsonValue`` satisfies and ``init(json:)`` accepts.
    static var jsonSchema: JSONValue { get }
}

extension JSONObject {
    /// Sets member `key` to the JSON form of `value`.
    public mutating func encode(_ key: String, _ value: some JSONConvertible) {
        self[key] = value.jsonValue
    }

    /// Sets member `key` to the JSON form of `value`, or leaves it out when `value` is `nil`.
    public mutating func encodeIfPresent<T: JSONConvertible>(_ key: String, _ value: T?) {
        if let value { self[key] = value.jsonValue }
    }
}
