import JSONCore

extension JSONObjectDecoder {
    /// Member `key` as one of `T`'s cases, named by raw value (`"daemon"` → `.daemon`).
    func decodeCase<T: RawRepresentable & CaseIterable>(
        _ key: String, as type: T.Type = T.self
    ) throws(JSONDecodingError) -> T where T.RawValue == String {
        let text: String = try decode(key)
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map { quoted($0.rawValue) }.joined(separator: " or ")
            throw JSONDecodingError(path: JSONPath([.key(key)]), expected: names, got: quoted(text))
        }
        return value
    }

    /// Member `key` as it is, which may be `null` but must be present ("required member … is
    /// missing" otherwise): the `{"value": …}` results of `vm.get` and `vm.execute`.
    func requiredMember(_ key: String) throws(JSONDecodingError) -> JSONValue {
        guard let member = object[key] else {
            throw JSONDecodingError(
                path: JSONPath([.key(key)]), expected: "a JSON value", got: "missing",
                detail: "required member \"\(key)\" is missing")
        }
        return member
    }
}
