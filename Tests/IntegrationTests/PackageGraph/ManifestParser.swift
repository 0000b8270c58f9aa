/// Reads ``ManifestValue``s from ``ManifestToken``s: the `Package(...)` call and everything
/// inside it.
struct ManifestParser {
    private let tokens: [ManifestToken]
    private var position = 0

    init(tokens: [ManifestToken]) { self.tokens = tokens }

    /// Skips to `Package(` (past `import PackageDescription` and `let package =`) and reads
    /// that call whole; nothing may follow it.
    mutating func packageCall() throws(PackageManifest.ReadingError) -> ManifestValue {
        while position < tokens.count {
            if tokens[position] == .identifier("Package"), position + 1 < tokens.count, tokens[position + 1] == .punctuation("(") {
                position += 2
                let package = try arguments(of: "Package")
                guard position == tokens.count else {
                    throw .init(description: "something follows Package(...): \(tokens[position])")
                }
                return package
            }
            position += 1
        }
        throw .init(description: "no Package(...) call")
    }

    private mutating func value() throws(PackageManifest.ReadingError) -> ManifestValue {
        guard position < tokens.count else { throw .init(description: "the text ends inside a value") }
        let token = tokens[position]
        position += 1
        switch token {
        case .string(let text): return .string(text)
        case .number(let number): return .word(number)
        case .punctuation("["):
            var items: [ManifestValue] = []
            while !take(.punctuation("]")) {
                items.append(try value())
                if !take(.punctuation(",")) {
                    try expect(.punctuation("]"))
                    break
                }
            }
            return .array(items)
        case .punctuation("."):
            guard position < tokens.count, case .identifier(let name) = tokens[position] else {
                throw .init(description: "\".\" is not followed by a name")
            }
            position += 1
            return take(.punctuation("(")) ? try arguments(of: name) : .member(name)
        case .identifier(let name):
            return take(.punctuation("(")) ? try arguments(of: name) : .word(name)
        case .punctuation(let character):
            throw .init(description: "\"\(character)\" where a value should be")
        }
    }

    /// The arguments after an opening parenthesis, up to and including the closing one.
    private mutating func arguments(of name: String) throws(PackageManifest.ReadingError) -> ManifestValue {
        var arguments: [(label: String?, value: ManifestValue)] = []
        while !take(.punctuation(")")) {
            var label: String?
            if position + 1 < tokens.count, case .identifier(let word) = tokens[position], tokens[position + 1] == .punctuation(":") {
                label = word
                position += 2
            }
            arguments.append((label, try value()))
            if !take(.punctuation(",")) {
                try expect(.punctuation(")"))
                break
            }
        }
        return .call(name, arguments)
    }

    private mutating func take(_ token: ManifestToken) -> Bool {
        guard position < tokens.count, tokens[position] == token else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ token: ManifestToken) throws(PackageManifest.ReadingError) {
        guard take(token) else {
            let found = position < tokens.count ? "\(tokens[position])" : "the end of the text"
            throw .init(description: "expected \(token), found \(found)")
        }
    }
}
