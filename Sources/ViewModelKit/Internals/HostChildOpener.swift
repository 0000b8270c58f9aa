import JSONCore

/// Creates the children of a host's instances as real instances of that host. One per host,
/// shared by all its instances' contexts; weak, so live instances never keep their host.
final class HostChildOpener: ChildOpening {
    private weak var host: ViewModelHost?

    init(host: ViewModelHost) {
        self.host = host
    }

    func openChild(type: String, args: JSONValue, parent: String, id: String?) throws(ViewModelError) -> String {
        let host = try liveHost(parent)
        try host.checkChildID(id, type: type)
        return try host.create(type: type, id: id, args: args, parent: parent).id
    }

    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments, parent: String, id: String?) throws(ViewModelError) -> ChildViewModel<Child> {
        let host = try liveHost(parent)
        try host.checkChildID(id, type: Child.typeName)
        let instance = try host.create(type: Child.typeName, id: id, args: args.jsonValue, parent: parent, keepingPorts: true)
        let childID = instance.id
        guard let ports = instance.runtime?.typedPorts as? Child.Ports else {
            // Another type is registered under the child's name: refuse rather than guess.
            try? host.destroy(childID)
            throw .unknownType(type: Child.typeName, known: host.registry.names)
        }
        return ChildViewModel(id: childID, ports: ports) { [weak host] in
            guard let host, let live = try? host.instance(childID), live === instance else { return }
            try? host.destroy(childID, reason: .destroyed)
        }
    }

    private func liveHost(_ parent: String) throws(ViewModelError) -> ViewModelHost {
        guard let host else { throw .unknownInstance(instance: parent) }
        return host
    }
}
