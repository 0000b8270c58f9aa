/// What ``Search`` asks for the entries matching a query.
public protocol SearchIndex: Sendable {
    /// The entries containing `query` (case-insensitive), in the index's order; none for a
    /// blank query.
    func search(_ query: String) async throws -> [String]
}

/// A built-in index over a fixed list of entries (by default, a few dozen fruits).
public struct InMemorySearchIndex: SearchIndex {
    /// The demo entries.
    public static let fruits = [
        "apple", "apricot", "avocado", "banana", "blackberry", "blackcurrant", "blueberry",
        "cherry", "clementine", "coconut", "cranberry", "date", "dragonfruit", "elderberry",
        "fig", "gooseberry", "grape", "grapefruit", "guava", "kiwi", "kumquat", "lemon", "lime",
        "lychee", "mandarin", "mango", "melon", "mulberry", "nectarine", "orange", "papaya",
        "passionfruit", "peach", "pear", "persimmon", "pineapple", "plum", "pomegranate",
        "quince", "raspberry", "redcurrant", "strawberry", "tangerine", "watermelon",
    ]

    /// The entries searched.
    package let entries: [String]

    public init(entries: [String] = InMemorySearchIndex.fruits) {
        self.entries = entries
    }

    public func search(_ query: String) async throws -> [String] {
        let needle = TextRules.trimmed(query).lowercased()
        guard !needle.isEmpty else { return [] }
        return entries.filter { $0.lowercased().contains(needle) }
    }
}
