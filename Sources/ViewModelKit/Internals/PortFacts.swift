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
/// host's thread. Unchecked because the class is not final (``InputFacts`` adds an input's
/// delivery) and because of ``declaredCodec``: every other stored property, here and there,
/// is a `let` of a `Sendable` type (strings, ``PortRole``, a `@Sendable` closure), so no
/// instance ever changes. ``declaredCodec`` is a `let` too, but its closures are the
/// author's and need not be `Sendable`; only the facts a port makes for itself hold one
/// (``named(_:)`` leaves it out), and those are reached only through that port, which is not
/// `Sendable`: they never leave its thread. The facts a layout shares, the only ones that
/// cross threads (in a registry), never hold one.
@usableFromInline class PortFacts: @unchecked Sendable {
    let summary: String
    let role: PortRole
    /// The property's name once attached by a layout; empty for a port of its own.
    let name: String
    /// The codec the port was declared with (a `ValueCodec<Value>`; an action's
    /// ``ActionCodecs``), kept only by facts of a port's own: a linked client encodes what
    /// an input or action takes and decodes what an output or action gives with it
    /// (``DeclaredPorts``). `nil` in the facts a layout shares: an instance never needs it.
    let declaredCodec: Any?

    @usableFromInline init(summary: String, role: PortRole, name: String, declaredCodec: Any? = nil) {
        self.summary = summary
        self.role = role
        self.name = name
        self.declaredCodec = declaredCodec
    }

    /// The role of an input: `schema` with `"default": defaultJSON` when given.
    @usableFromInline static func inputRole(schema: JSONValue, default defaultJSON: JSONValue?, secret: Bool = false) -> PortRole {
        var published = defaultJSON.map { schema.addingDefault($0) } ?? schema
        if secret { published = published.adding("writeOnly", .bool(true)) }
        return .input(schema: published, defaultValue: defaultJSON)
    }

    /// The facts of an output of its own, encoded with `codec`.
    @usableFromInline static func output<Value>(kind: OutputKind, summary: String, codec: ValueCodec<Value>) -> PortFacts {
        PortFacts(summary: summary, role: .output(kind: kind, schema: codec.makeSchema()), name: "", declaredCodec: codec)
    }

    /// The facts of an action port of its own, taking values with `input` and giving them
    /// with `output`.
    @usableFromInline static func action<Value, Element>(
        summary: String, input: ValueCodec<Value>, output: ValueCodec<Element>
    ) -> PortFacts {
        PortFacts(
            summary: summary, role: .action(input: input.makeSchema(), output: output.makeSchema()), name: "",
            declaredCodec: ActionCodecs(input: input, output: output))
    }

    /// These facts under the wire name `name` (what a layout keeps for each declared port),
    /// of the same class, without the declared codec (see the type's documentation).
    func named(_ name: String) -> PortFacts {
        PortFacts(summary: summary, role: role, name: name)
    }
}
