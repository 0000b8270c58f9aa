/// A value in a config file: the TOML subset described in <doc:ConfigFileFormat>.
package enum ConfigValue: Sendable, Hashable, CustomStringConvertible {
    /// `"text"` or `'text'`.
    case string(String)
    /// `42`, `-7`, `1_000`.
    case integer(Int)
    /// `true` or `false`.
    case boolean(Bool)
    /// `["a", "b"]`, on one line; elements are strings, integers or booleans.
    case array([ConfigValue])

    /// The value written back in the file's syntax: strings quoted and escaped.
    package var description: String {
        switch self {
        case .string(let text): Self.quoted(text)
        case .integer(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// What kind of value this is, for messages: `a string`, `an integer`...
    var kindName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .array: "a list"
        }
    }

    /// `text` as a TOML basic string, escaping quotes, backslashes and control characters.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
