/// A struct member whose type the schema derivation cannot describe, so that the struct's
/// schema would silently lack the members after it (``JSONSchemaBuilder/schema(for:)``):
/// what it is, where, and what to do about it.
///
/// The derived schema carries it as the keyword ``keyword`` at the member's place, so that
/// whoever publishes the schema (the kit's registry) refuses it with this message
/// (``JSONSchemaBuilder/derivationProblem(in:)``). Elsewhere (the root, an array's elements,
/// a dictionary's values, an optional member) such a type hides nothing and is described
/// as what it reads: its raw type, or an object of any members.
public struct SchemaDerivationProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The vendor keyword a derived schema holds the problem in.
    public static let keyword = "x-vmd-cannot-derive"

    /// The member, from the root type (`"Settings.status.mood"`).
    public let member: String
    /// The member's type (`"Mood"`).
    public let type: String
    /// Why, and the fix, for the author.
    public let reason: String

    public init(member: String, type: String, reason: String) {
        self.member = member
        self.type = type
        self.reason = reason
    }

    public var description: String { "\(member) (\(type)): \(reason)" }

    /// The schema standing for the member: only ``keyword`` and the message.
    var marker: JSONValue { [Self.keyword: .string(description)] }

    /// Why `T`, whose `init(from:)` gave the probe no value and left `node`, cannot be
    /// described: a raw-value enumeration that cannot list its cases, or an enumeration with
    /// associated values; `nil` for other types.
    static func reason<T>(_ type: T.Type, node: ProbeNode) -> String? {
        let name = String(describing: T.self)
        if T.self is any RawRepresentable.Type {
            return "an enumeration with raw values that is not CaseIterable: its cases cannot be listed. "
                + "Conform \(name) to CaseIterable (or state its schema with JSONSchemaProviding)."
        }
        if node.hasUnnamedKeys {
            return "decodes keys that cannot be listed (an enumeration with associated values). "
                + "State its schema with JSONSchemaProviding."
        }
        return nil
    }
}

extension JSONSchemaBuilder {
    /// The first member a derived `schema` could not describe (``SchemaDerivationProblem``),
    /// if any: a publisher refuses such a schema with this message.
    public static func derivationProblem(in schema: JSONValue) -> String? {
        switch schema {
        case .object(let object):
            if case .string(let message)? = object[SchemaDerivationProblem.keyword] { return message }
            for (_, value) in object {
                if let message = derivationProblem(in: value) { return message }
            }
            return nil
        case .array(let values):
            for value in values {
                if let message = derivationProblem(in: value) { return message }
            }
            return nil
        default:
            return nil
        }
    }
}
