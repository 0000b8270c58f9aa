import ReactiveCore

/// Finds the ports of a ``ViewModelPorts`` value with `Mirror`: one entry per stored
/// property, in declaration order, named after the property.
///
/// The registry reflects a fresh `Ports()` once per type to build the description; the host
/// reflects each instance's own `Ports()` to wire it (ports are objects holding that
/// instance's subjects, so each instance needs its own).
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
