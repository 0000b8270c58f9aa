import ReactiveCore

/// Finds the ports of a ``ViewModelPorts`` value with `Mirror`: one entry per stored
/// property, in declaration order, named after the property.
///
/// Used once per type, on a probe `Ports()`: for the type's description and to learn its
/// ``PortLayout``. Instances are wired by the layout from their `Ports` value's bytes, not
/// reflected (only a `Ports` the layout cannot map, see there, falls back to this).
enum PortReflection {
    struct Found {
        let name: String
        let port: any PortBox
    }

    /// The ports of `ports`, or a description of the first property that is not one.
    static func ports(of ports: some ViewModelPorts, typeName: String) throws(ViewModelDefinitionError) -> [Found] {
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
