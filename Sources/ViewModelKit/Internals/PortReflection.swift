// `_forEachFieldWithKeyPath` (the standard library's reflection SPI): a struct's stored
// properties by name and key path, without `Mirror` (see `PortReflection`).
@_spi(Reflection) import Swift
import ReactiveCore

/// Finds the ports of a ``ViewModelPorts`` value: one entry per stored property, in
/// declaration order, named after the property.
///
/// Used once per type, on a probe `Ports()`: for the type's description and to learn its
/// ``PortLayout``. Instances are wired by the layout from their `Ports` value's bytes, not
/// reflected (only a `Ports` the layout cannot map, see there, falls back to this).
///
/// A struct's properties are read through the key paths the standard library's
/// `_forEachFieldWithKeyPath` makes from its field records: `Mirror(reflecting:)` first
/// asks whether the value is `CustomReflectable` (a first-time scan of every
/// protocol-conformance record per `Ports` type) and builds its children through generic
/// collections whose first use scans more; at start-up that was most of learning the
/// catalog's layouts (ViewModelDaemon.docc/Performance.md, "Start-up"). Anything that way
/// does not read as a port (a `Ports` that is not a struct, a weak or unowned property, a
/// property that is not a port) is reflected with `Mirror` instead, which finds the same
/// ports or throws the definition error naming the property.
enum PortReflection {
    struct Found {
        let name: String
        let port: any PortBox
    }

    /// The ports of `ports`, or a description of the first property that is not one.
    static func ports<Ports: ViewModelPorts>(of ports: Ports, typeName: String) throws(ViewModelDefinitionError) -> [Found] {
        if let found = fieldPorts(of: ports) { return found }
        return try mirroredPorts(of: ports, typeName: typeName)
    }

    /// The ports of a struct `ports` read through its fields' key paths; `nil` when one of
    /// its stored properties cannot be read that way or is not a port.
    static func fieldPorts<Ports: ViewModelPorts>(of ports: Ports) -> [Found]? {
        var found: [Found] = []
        let complete = _forEachFieldWithKeyPath(of: Ports.self) { name, keyPath in
            guard let port = ports[keyPath: keyPath] as? any PortBox else { return false }
            found.append(Found(name: String(cString: name), port: port))
            return true
        }
        return complete ? found : nil
    }

    /// The ports of `ports` found with `Mirror`, or a description of the first property that
    /// is not one.
    static func mirroredPorts(of ports: some ViewModelPorts, typeName: String) throws(ViewModelDefinitionError) -> [Found] {
        var found: [Found] = []
        for child in Mirror(reflecting: ports).children {
            guard let label = child.label, !label.isEmpty else {
                throw ViewModelDefinitionError(type: typeName, problem: "Ports must be a struct with named stored properties")
            }
            guard let port = child.value as? any PortBox else {
                throw ViewModelDefinitionError(
                    type: typeName,
                    problem: "property '\(label)' of its Ports is a \(type(of: child.value)), not an Input, State, EventOutput or ActionPort")
            }
            found.append(Found(name: label, port: port))
        }
        return found
    }
}
