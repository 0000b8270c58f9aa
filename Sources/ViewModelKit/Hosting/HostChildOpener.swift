import JSONCore

/// Creates the children of one hosted instance as real instances of its host, with that
/// instance as their parent.
final class HostChildOpener: ChildOpening {
    private weak var host: ViewModelHost?
    private let parent: String

    init(host: ViewModelHost, parent: String) {
        self.host = host
        self.parent = parent
    }

    func openChild(type: String, args: JSONValue) throws(ViewModelError) -> String {
        try liveHost().create(type: type, args: args, parent: parent).id
    }

    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments) throws(ViewModelError) -> ChildViewModel<Child> {
        let host = try liveHost()
        let instance = try host.create(type: Child.typeName, args: args.jsonValue, parent: parent)
        let childID = instance.id
        guard let ports = instance.runtime?.ports as? Child.Ports else {
            // Another type is registered under the child's name: refuse rather than guess.
            try? host.destroy(childID)
            throw .unknownType(type: Child.typeName, known: host.registry.names)
        }
        return ChildViewModel(id: childID, ports: ports) { [weak host] in
            guard let host, let live = try? host.instance(childID), live === instance else { return }
            try? host.destroy(childID, reason: .destroyed)
        }
    }

    private func liveHost() throws(ViewModelError) -> ViewModelHost {
        guard let host else { throw .unknownInstance(instance: parent) }
        return host
    }
}
