/// A token of Package.swift's text: comments are dropped, string literals kept whole.
enum ManifestToken: Equatable {
    case identifier(String)
    case string(String)
    case number(String)
    /// One of `( ) [ ] , : . =`.
    case punctuation(Character)

    /// Splits `text` into tokens. `//` and `/* */` comments are skipped; a character outside
    /// the subset (an operator, `#if`, string interpolation) is an error naming its line.
    static func tokenize(_ text: String) throws(PackageManifest.ReadingError) -> [ManifestToken] {
        var tokens: [ManifestToken] = []
        let characters = Array(text)
        var index = 0
        var line = 1
        func peek(_ offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        while let character = peek() {
            if character == "\n" { line += 1; index += 1; continue }
            if character.isWhitespace { index += 1; continue }
            if character == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" { index += 1 }
                continue
            }
            if character == "/", peek(1) == "*" {
                index += 2
                while let next = peek(), !(next == "*" && peek(1) == "/") {
                    if next == "\n" { line += 1 }
                    index += 1
                }
                index += 2
                continue
            }
            if character == "\"" {
                index += 1
                var literal = ""
                while true {
                    guard let next = peek(), next != "\n" else {
                        throw .init(description: "line \(line): a string literal does not end on its line")
                    }
                    index += 1
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = peek() else { continue }
                        if escaped == "(" { throw .init(description: "line \(line): string interpolation") }
                        index += 1
                        if escaped != "\"" && escaped != "\\" { literal.append("\\") }
                        literal.append(escaped)
                        continue
                    }
                    literal.append(next)
                }
                tokens.append(.string(literal))
                continue
            }
            if character.isLetter || character == "_" {
                var word = ""
                while let next = peek(), next.isLetter || next.isNumber || next == "_" { word.append(next); index += 1 }
                tokens.append(.identifier(word))
                continue
            }
            if character.isNumber {
                var number = ""
                while let next = peek(), next.isNumber || next == "." || next == "_" { number.append(next); index += 1 }
                tokens.append(.number(number))
                continue
            }
            if "()[],:.=".contains(character) {
                tokens.append(.punctuation(character))
                index += 1
                continue
            }
            throw .init(description: "line \(line): \"\(character)\" is outside the declarative subset")
        }
        return tokens
    }
}
