/// Unique type names for one generated file: every record, alias and view-model class goes
/// through one allocator, so no two declarations share a name and none shadows a name a target
/// language or the generated code itself uses.
struct GenNames {
    /// Names no declaration may take: capitalised keywords and built-in types of Python,
    /// TypeScript and Swift, and the names the emitters import or declare themselves.
    static let reserved: Set<String> = [
        "None", "True", "False", "Any", "Self", "Type", "Protocol", "Never", "Optional", "List", "Dict",
        "Literal", "Union", "TypedDict", "Mapping", "Sequence", "Iterator", "AsyncIterator", "Final",
        "Object", "String", "Number", "Boolean", "Array", "Record", "Promise", "Symbol", "Function", "Error",
        "Date", "Map", "Set", "Json", "JSON", "Int", "Int64", "Double", "Bool", "Character", "Void", "Sendable",
        "Codable", "Hashable", "Equatable", "Client", "AsyncClient", "Output", "Subscription",
        "AsyncSubscription", "Created", "VMClient", "VMSubscription", "JSONValue", "ViewModels",
        "TypedClient", "TypedInstance", "VMClientError", "MISSING", "VMOutputEvent", "InstanceScope", "SubscribeOptions",
    ]

    private var taken = GenNames.reserved

    /// A fresh name close to `wanted`: made an identifier (``typeIdentifier(_:)``), then
    /// numbered from 2 until unused.
    mutating func allocate(_ wanted: String) -> String {
        let base = Self.typeIdentifier(wanted)
        var name = base
        var number = 2
        while taken.contains(name) {
            name = base + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }

    /// Marks `name` used (a name derived from an allocated one, such as `LoginSubscription`).
    /// Returns false when it was already taken.
    mutating func claim(_ name: String) -> Bool { taken.insert(name).inserted }

    /// `wanted` as an upper-camel-case ASCII identifier: words split at characters that are not
    /// ASCII letters or digits, each capitalised; any other character is written as `U` and its
    /// hexadecimal code (escaped, not dropped); a leading digit gets a `T` before it.
    static func typeIdentifier(_ wanted: String) -> String {
        var result = ""
        var startOfWord = true
        for scalar in wanted.unicodeScalars {
            if scalar.isASCII, isLetterOrDigit(scalar) {
                let character = Character(scalar)
                result.append(startOfWord ? Character(character.uppercased()) : character)
                startOfWord = false
            } else if scalar.isASCII {
                startOfWord = true
            } else {
                result += "U" + String(scalar.value, radix: 16, uppercase: true)
                startOfWord = true
            }
        }
        if result.isEmpty { return "Value" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { return "T" + result }
        return result
    }

    /// A member name made a lower-snake-or-camel identifier in ASCII for a language whose
    /// identifiers are `[A-Za-z_][A-Za-z0-9_]*`: other characters become `_` (non-ASCII ones
    /// `_uXXXX`), a leading digit gets `_` before it. Keywords are the emitter's to escape.
    static func memberIdentifier(_ wanted: String) -> String {
        var result = ""
        for scalar in wanted.unicodeScalars {
            if scalar.isASCII, isLetterOrDigit(scalar) || scalar == "_" {
                result.unicodeScalars.append(scalar)
            } else if scalar.isASCII {
                result += "_"
            } else {
                result += "_u" + String(scalar.value, radix: 16, uppercase: true)
            }
        }
        if result.isEmpty { return "_" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { return "_" + result }
        return result
    }

    /// Whether `text` is already an ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`).
    static func isPlainIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, isLetterOrDigit(first) || first == "_",
              !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && (isLetterOrDigit($0) || $0 == "_") }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
