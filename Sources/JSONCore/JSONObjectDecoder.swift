/// Reads the members of a JSON object into typed values, prefixing errors with the member's
/// name so they point at the exact spot (`$.value.step`).
public struct JSONObjectDecoder: Sendable {
    /// The object being read.
    public let object: JSONObject

    /// Fails with "expected object, got …" unless `value` is an object.
    public init(_ value: JSONValue) throws(JSONDecodingError) {
        guard case .object(let object) = value else { throw .typeMismatch(expected: "object", got: value) }
        self.object = object
    }

    /// Decodes member `key`. A missing member decodes as `null` would, so an `Optional` member
    /// may be missing and anything else reports "got missing".
    public func decode<T: JSONConvertible>(_ key: String, as type: T.Type = T.self) throws(JSONDecodingError) -> T {
        guard let member = object[key] else {
            do throws(JSONDecodingError) {
                return try T(json: .null)
            } catch {
                var missing = error.prefixed(by: .key(key))
                missing.got = "missing"
                missing.detail = "required member \"\(key)\" is missing"
                throw missing
            }
        }
        do throws(JSONDecodingError) {
            return try T(json: member)
        } catch {
            throw error.prefixed(by: .key(key))
        }
    }

    /// Decodes member `key`, or returns `defaultValue` when it is missing or `null`.
    public func decode<T: JSONConvertible>(_ key: String, default defaultValue: T) throws(JSONDecodingError) -> T {
        guard let member = object[key], !member.isNull else { return defaultValue }
        // The member found above, decoded as `decode(_:as:)` decodes it, without a second
        // lookup. Written out, not shared through a generic helper: callers in other modules
        // reach both unspecialized, and the extra generic call showed (Performance.md).
        do throws(JSONDecodingError) {
            return try T(json: member)
        } catch {
            throw error.prefixed(by: .key(key))
        }
    }

    /// Fails on the first member whose name is not in `allowed` ("unexpected member").
    public func rejectUnknownMembers(allowed: Set<String>) throws(JSONDecodingError) {
        for member in object.storage where !allowed.contains(member.key) {
            throw Self.unexpected(member.key, allowed: allowed)
        }
    }

    /// Fails on the first member whose name is not in `allowed`, as the `Set` form does, with
    /// the names compared one by one: no set is built or hashed (an array literal at the call
    /// site lands here; the cost: ViewModelDaemon.docc/Performance.md).
    public func rejectUnknownMembers(allowed: [String]) throws(JSONDecodingError) {
        for (position, member) in object.storage.enumerated() {
            // Members usually come in the listed order: the name at the member's own position
            // is tried first, and an equal one there is found without the comparisons before it.
            if position < allowed.count, allowed[position] == member.key { continue }
            if !allowed.contains(member.key) { throw Self.unexpected(member.key, allowed: allowed) }
        }
    }

    private static func unexpected(_ key: String, allowed: some Sequence<String>) -> JSONDecodingError {
        JSONDecodingError(
            path: JSONPath([.key(key)]), expected: "no member \"\(key)\"", got: "a value",
            detail: "allowed members: \(allowed.sorted().joined(separator: ", "))")
    }
}
