/// Limits and policies of ``JSONParser``.
public struct JSONParseOptions: Sendable, Hashable {
    /// What to do when an object repeats a key (RFC 8259 leaves it to the implementation).
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// The last value wins, at the first occurrence's position (as ECMAScript's `JSON.parse`).
        case lastWins
        /// A repeated key is a ``JSONParseError/Kind-swift.enum/duplicateKey`` error.
        case reject
    }

    /// Maximum nesting of arrays and objects: `[]` is depth 1, `[[]]` depth 2, a scalar 0.
    public var maxDepth: Int
    /// Policy for repeated object keys.
    public var duplicateKeys: DuplicateKeyPolicy

    /// Defaults: depth 512 (deep enough for any sane document, shallow enough for the
    /// recursive parser's stack on a 512 KiB thread), last key wins.
    public init(maxDepth: Int = 512, duplicateKeys: DuplicateKeyPolicy = .lastWins) {
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
    }

    /// The defaults.
    public static let `default` = JSONParseOptions()
}
