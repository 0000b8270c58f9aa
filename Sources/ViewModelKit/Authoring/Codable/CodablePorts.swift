import JSONCore

// Port initializers for `Codable` values. Each is `@_disfavoredOverload`, so a type that is
// also `JSONConvertible` (String, Int, a hand-written conformance) keeps the `.json` codec
// of the initializers beside the ports, and only types that are `Codable` alone land here.

extension Input where Value: Codable & Sendable {
    /// An input of a `Codable` type (its schema derived); an omitted value on the wire means
    /// `defaultValue` when given (published as the schema's `default`).
    @_disfavoredOverload
    public convenience init(_ summary: String = "", default defaultValue: Value? = nil) {
        self.init(summary, codec: .codable, default: defaultValue)
    }
}

extension State where Value: Codable & Sendable {
    /// A state output of a `Codable` type (its schema derived), holding `initial` until its
    /// source says otherwise.
    @_disfavoredOverload
    public convenience init(_ summary: String = "", initial: Value) {
        self.init(summary, initial: initial, codec: .codable)
    }
}

extension EventOutput where Value: Codable & Sendable {
    /// An event output of a `Codable` type (its schema derived).
    @_disfavoredOverload
    public convenience init(_ summary: String = "") {
        self.init(summary, codec: .codable)
    }
}

extension ActionPort where Value: Codable & Sendable, Element: Codable & Sendable {
    /// An action taking and returning `Codable` values. A side that is `JSONConvertible`
    /// still goes through its hand-written conformance (see ``ValueCodec/codable``).
    @_disfavoredOverload
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .codable, output: .codable)
    }
}

extension ActionPort where Value == Void, Element: Codable & Sendable {
    /// An action taking no value (`{"type": "null"}`) and returning a `Codable` value.
    @_disfavoredOverload
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .void, output: .codable)
    }
}

extension ActionPort where Value: Codable & Sendable, Element == Void {
    /// An action taking a `Codable` value and returning nothing (`null`).
    @_disfavoredOverload
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .codable, output: .void)
    }
}
