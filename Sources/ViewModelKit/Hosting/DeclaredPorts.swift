import JSONCore

/// `VM`'s declared ports as a client that links `VM` names them: by key path of its `Ports`,
/// each port's wire name and the codec it was declared with. The `ViewModelClient` module
/// builds its typed remote handle on this, so one declaration of `Ports` serves the harness
/// (which reaches a port by key path too, `send(\.increment, 2)`), the daemon and the client.
///
/// It makes one `Ports()` of its own, outside any instance: each of its ports then keeps the
/// codec it was declared with (see PortFacts.swift), and its wire names are found the way a
/// registry finds them, by reflecting that probe (``PortReflection``). A key path is
/// resolved by reading the probe through it and looking the port up by identity. Nothing is
/// bound or run: the view model's `init` is never called.
///
/// Not `Sendable`: the probe's ports are the author's classes and codecs.
package struct DeclaredPorts<VM: ViewModel> {
    /// One port as a client names it.
    package struct Port<Codec> {
        /// Its wire name (the property's name).
        package let name: String
        /// How its values cross the wire, as declared.
        package let codec: Codec
    }

    private let probe: VM.Ports
    /// The wire name of each of the probe's ports, by the port's identity.
    private let names: [ObjectIdentifier: String]

    /// `VM`'s ports. Throws what registering `VM` would: a stored property of `Ports` that
    /// is not a port.
    package init() throws(ViewModelDefinitionError) {
        probe = VM.Ports()
        let found = try PortReflection.ports(of: probe, typeName: VM.typeName)
        names = Dictionary(found.map { (ObjectIdentifier($0.port), $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The input at `keyPath`.
    package func input<Value>(_ keyPath: KeyPath<VM.Ports, Input<Value>>) throws(ViewModelDefinitionError) -> Port<ValueCodec<Value>> {
        try port(probe[keyPath: keyPath], at: keyPath)
    }

    /// The state output at `keyPath`.
    package func state<Value>(_ keyPath: KeyPath<VM.Ports, State<Value>>) throws(ViewModelDefinitionError) -> Port<ValueCodec<Value>> {
        try port(probe[keyPath: keyPath], at: keyPath)
    }

    /// The event output at `keyPath`.
    package func event<Value>(_ keyPath: KeyPath<VM.Ports, EventOutput<Value>>) throws(ViewModelDefinitionError) -> Port<ValueCodec<Value>> {
        try port(probe[keyPath: keyPath], at: keyPath)
    }

    /// The action at `keyPath`.
    package func action<Value, Element>(
        _ keyPath: KeyPath<VM.Ports, ActionPort<Value, Element>>
    ) throws(ViewModelDefinitionError) -> Port<ActionCodecs<Value, Element>> {
        try port(probe[keyPath: keyPath], at: keyPath)
    }

    /// `box`'s name and declared codec, or why a client cannot name it: a key path to
    /// something other than a stored port of `Ports` (a computed property making a port of
    /// its own) has no wire name.
    private func port<Codec>(_ box: any PortBox, at keyPath: AnyKeyPath) throws(ViewModelDefinitionError) -> Port<Codec> {
        guard let name = names[ObjectIdentifier(box)] else {
            throw ViewModelDefinitionError(type: VM.typeName, problem: "\(keyPath) is not a stored port of its Ports, so it has no wire name")
        }
        guard let codec = box.facts.declaredCodec as? Codec else {
            // Only a `Ports()` whose ports were handed shared facts (one made while an
            // instance's is) lacks its codecs; this one is made on its own.
            throw ViewModelDefinitionError(type: VM.typeName, problem: "its port '\(name)' was made without its codec")
        }
        return Port(name: name, codec: codec)
    }
}
