import JSONCore

/// What a declared port is, the same in every instance of its view-model type: its summary,
/// its role (kind and schemas) and its wire name.
///
/// A port keeps one reference to these instead of the facts themselves (a summary, a schema
/// closure per codec, an encoded default, a name, in every port of every instance, see
/// `vmd-bench create`, RSS per idle Counter). The ports of an instance share
/// the facts its type's ``PortLayout`` learned from a probe: ``PortFactsSharing`` hands them
/// to the ports while the kit makes the instance's `Ports()`, and ``PortLayout`` attaches
/// each port to the facts of its declared position. A port made anywhere else (a probe, a
/// test making `Ports()` itself) gets facts of its own, with its schema built then and no
/// wire name until attached.
///
/// Immutable, hence `Sendable`: a registry's layouts are built at start-up and used on the
/// host's thread. Unchecked only because the class is not final (``InputFacts`` adds an
/// input's delivery): every stored property, here and there, is a `let` of a `Sendable` type
/// (strings, ``PortRole``, a `@Sendable` closure), so no instance ever changes.
@usableFromInline class PortFacts: @unchecked Sendable {
    let summary: String
    let role: PortRole
    /// The property's name once attached by a layout; empty for a port of its own.
    let name: String

    @usableFromInline init(summary: String, role: PortRole, name: String) {
        self.summary = summary
        self.role = role
        self.name = name
    }

    /// The role of an input: `schema` with `"default": defaultJSON` when given.
    @usableFromInline static func inputRole(schema: JSONValue, default defaultJSON: JSONValue?, secret: Bool = false) -> PortRole {
        var published = defaultJSON.map { schema.addingDefault($0) } ?? schema
        if secret { published = published.adding("writeOnly", .bool(true)) }
        return .input(schema: published, defaultValue: defaultJSON)
    }

    /// The facts of an output of its own.
    @usableFromInline static func output(kind: OutputKind, summary: String, schema: JSONValue) -> PortFacts {
        PortFacts(summary: summary, role: .output(kind: kind, schema: schema), name: "")
    }

    /// The facts of an action port of its own.
    @usableFromInline static func action(summary: String, input: JSONValue, output: JSONValue) -> PortFacts {
        PortFacts(summary: summary, role: .action(input: input, output: output), name: "")
    }

    /// These facts under the wire name `name` (what a layout keeps for each declared port),
    /// of the same class.
    func named(_ name: String) -> PortFacts {
        PortFacts(summary: summary, role: role, name: name)
    }
}
