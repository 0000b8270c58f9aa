import JSONCore

/// A member of a generated record: the JSON key, kept exactly (emitters escape it where the
/// target language needs), its type, and whether the schema requires it.
struct GenField: Hashable {
    var key: String
    var type: GenType
    var isRequired: Bool
    var summary: String
}

/// A named type a generated client declares: a record (an object schema with properties) or an
/// alias (a referenced root that is not a record, such as a recursive array).
struct GenDeclaration: Hashable {
    enum Body: Hashable {
        case record([GenField])
        case alias(GenType)
    }

    var name: String
    var summary: String
    var body: Body
    /// The schema it was read from (emitters that publish a schema, such as Swift's, repeat it).
    var schema: JSONValue
}
