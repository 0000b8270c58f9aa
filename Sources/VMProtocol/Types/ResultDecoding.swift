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
}
