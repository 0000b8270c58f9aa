/// A JSON value: the one in-memory form every layer of vmd exchanges.
///
/// Numbers keep their exactness: an integer literal that fits in `Int64` parses as
/// ``integer(_:)``, every other number as ``double(_:)``. Objects are ordered
/// (``JSONObject`` keeps insertion order) so that serialization is deterministic
/// byte for byte.
///
/// Equality follows JSON's data model rather than the Swift representation: numbers
/// compare by value (`1` equals `1.0`) and objects compare without regard to member
/// order. `description` is the compact JSON text.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.integer(a), .double(b)), let (.double(b), .integer(a)):
            return JSONValue.exactInteger(b) == a
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    /// The `Int64` a double stands for exactly, if any (used so that `1.0 == 1`).
    @usableFromInline
    static func exactInteger(_ value: Double) -> Int64? {
        // Written without `rounded()`/`Int64(exactly:)`: those inline calls into libm, which
        // nothing in a Foundation-free build links. The truncating conversion is a builtin.
        // ±2^63 are exactly representable doubles, but each also stands for the integers
        // beyond Int64 that round to it (-9223372036854775809 parses as -2^63): neither is taken
        // as an integer, so both ends refuse alike. Int64.min itself, written as an integer,
        // never becomes a double (JSONParser+Numbers.swift).
        guard value > -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else { return nil }
        let truncated = Int64(value)
        return Double(truncated) == value ? truncated : nil
    }
}

extension JSONValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .double(let value):
            // Integral doubles hash like the equal integer, keeping == and hash consistent.
            if let exact = JSONValue.exactInteger(value) {
                hasher.combine(2 as UInt8)
                hasher.combine(exact)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value)
        case .array(let values):
            hasher.combine(5 as UInt8)
            hasher.combine(values)
        case .object(let object):
            hasher.combine(6 as UInt8)
            hasher.combine(object)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value.
    public var description: String { encodedString() }
}
