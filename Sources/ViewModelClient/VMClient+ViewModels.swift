import JSONCore
import VMClient
import VMProtocol
import ViewModelKit

extension VMClient {
    /// A typed handle on the instance `id` of `VM` (which this app links): nothing is sent
    /// until it is used.
    /// - Throws: ``ViewModelKit/ViewModelDefinitionError`` when `VM.Ports` has a stored
    ///   property that is not a port (the daemon would refuse to register `VM` too).
    public func instance<VM: ViewModel>(_ type: VM.Type, id: String) throws(ViewModelDefinitionError) -> RemoteViewModel<VM> {
        RemoteViewModel(client: self, instance: id, ports: try DeclaredPorts<VM>())
    }

    /// `vm.create` of `VM` (under its `typeName`) with `args` (`nil`: the type's defaults),
    /// and a typed handle on the new instance. `id`, `scope` and `durable` are
    /// ``create(type:id:args:scope:subscribe:durable:)``'s.
    public func create<VM: ViewModel>(
        _ type: VM.Type, args: VM.Arguments? = nil, id: String? = nil, scope: InstanceScope = .daemon, durable: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteViewModel<VM> {
        // The handle is made first: a `Ports` the kit refuses creates nothing.
        let ports = try DeclaredPorts<VM>()
        var object: JSONObject? = nil
        if let args {
            guard case .object(let members) = args.jsonValue else {
                throw ViewModelDefinitionError(type: VM.typeName, problem: "its Arguments encode as \(args.jsonValue.typeName), not an object")
            }
            object = members
        }
        let created = try await create(type: VM.typeName, id: id, args: object, scope: scope, durable: durable)
        return RemoteViewModel(client: self, instance: created.instance, ports: ports)
    }
}
