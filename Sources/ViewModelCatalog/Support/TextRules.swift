/// Small text rules the catalog's view models share (no Foundation: the catalog is built
/// from the standard library alone).
enum TextRules {
    /// `text` without leading and trailing whitespace (spaces, tabs, newlines…).
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// Whether `text` looks like an email address: one `@`, something before it, a domain
    /// after it with a dot that is neither first nor last, and no whitespace anywhere.
    /// (A shape check for enabling a button, not RFC 5322: the service has the last word.)
    static func looksLikeEmailAddress(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last else { return false }
        guard !local.isEmpty, let dot = domain.lastIndex(of: ".") else { return false }
        return dot != domain.startIndex && domain.index(after: dot) != domain.endIndex
    }
}
