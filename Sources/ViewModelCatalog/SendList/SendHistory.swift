import JSONCore
import ReactiveCore
import ViewModelKit

/// What SendList has stored, read back from the store: after a restart of the daemon
/// (even `kill -9` right after a send was acknowledged), a new SendHistory lists every
/// acknowledged upload exactly once. Loaded when the instance is created; `reload` reads
/// the store again.
public struct SendHistory: ViewModel {
    public typealias Services = any SendStore
    public static let summary = "The uploads SendList has stored, read back from the store, each once."

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let uploads = State<[Upload]>("Every stored upload, oldest first, as the store last said.", initial: [])
        public let isLoading = State<Bool>("The store is being read.", initial: false)
        public let failure = EventOutput<String>("Why reading the store failed, for a person; uploads stays as it was.")
        public let reload = ActionPort<Void, [Upload]>("Read the store again; returns the uploads.")

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let store = context.services
        let read: Action<Void, [Upload]> = context.action { _ in try await store.uploads() }
        ports.reload.bind(read)
        ports.uploads.bind(read.elements.startWith([]).distinctUntilChanged())
        ports.isLoading.bind(read.executing)
        ports.failure.bind(read.errors.compactMap(\.failureMessage))
        read.execute(())
    }
}
