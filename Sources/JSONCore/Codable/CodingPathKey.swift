/// The coding keys the JSON encoder and decoder make up themselves: array positions and the
/// `"super"` member of a super encoder or decoder.
struct CodingPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The position of an element in an array.
    static func index(_ position: Int) -> CodingPathKey { CodingPathKey(intValue: position) }

    /// The member `superEncoder()` and `superDecoder()` use, as Foundation's coders do.
    static let superKey = CodingPathKey(stringValue: "super")

    /// `path` as a ``JSONPath``: array positions (this type's own keys) become indices,
    /// everything else a member name.
    static func jsonPath(_ path: [any CodingKey]) -> JSONPath {
        JSONPath(path.map { key in
            if let position = key as? CodingPathKey, let index = position.intValue { return .index(index) }
            return .key(key.stringValue)
        })
    }
}
