import JSONCore

/// Lines of generated source, indented by four spaces per level, ending with one newline.
struct SourceText {
    private(set) var lines: [String] = []
    private var depth = 0

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// `body` one level deeper.
    mutating func indented(_ body: (inout SourceText) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    var text: String { lines.joined(separator: "\n") + "\n" }

    /// `text` as a double-quoted literal that Python, TypeScript and Swift all read the same:
    /// `\` and `"` escaped, every other character outside printable ASCII as `\u{…}` for Swift
    /// (`swift: true`) or `\uXXXX` (UTF-16) for the other two.
    static func quoted(_ text: String, swift: Bool = false) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case " "..."~": result.unicodeScalars.append(scalar)
            default:
                if swift {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                }
            }
        }
        return result + "\""
    }

    /// A summary as one line safe in any comment or docstring of the three languages: line
    /// breaks become spaces, `*/` and `"""` are broken up, backslashes doubled.
    static func oneLine(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isNewline {
                result.append(" ")
            } else if character == "\\" {
                result += "\\\\"
            } else if character == "/", result.hasSuffix("*") {
                result += " /"
            } else if character == "\"", result.hasSuffix("\"\"") {
                result += " \""
            } else {
                result.append(character)
            }
        }
        return result
    }
}
