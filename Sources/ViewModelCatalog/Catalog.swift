import ViewModelKit

/// The built-in view models vmd serves by default, registered in one call:
///
/// ```swift
/// var registry = ViewModelRegistry()
/// try Catalog.register(into: &registry, configuration: CatalogConfiguration(stateDirectory: stateDir))
/// ```
///
/// | type | what it shows |
/// |---|---|
/// | ``Counter`` | the smallest recipe: inputs folded by `scan` into a state, an action |
/// | ``Login`` | validation, an async service behind an action, loading and outcome events |
/// | ``Follow`` | a state loaded at creation and toggled through a service; failures as events |
/// | ``TextField`` | two input sources merged into one state, without duplicates |
/// | ``SendList`` / ``SendReceipt`` | a durable upload, then a child scene announced on `navigate` |
/// | ``SendHistory`` | the store read back (each upload once, also after a crash) |
/// | ``Search`` | search as you type: a debounced query, the `latest` strategy |
/// | ``TodoList`` | a long list whose changes patch subscribers receive as RFC 6902 patches |
/// | ``TodoRecord`` | a record replaced as a whole, `Codable` and hand-written side by side |
public enum Catalog {
    /// The wire names of the catalog's types, in `vm.types` order.
    package static let typeNames = ["Counter", "Follow", "Login", "Search", "SendHistory", "SendList", "SendReceipt", "TextField", "TodoList", "TodoRecord"]

    /// Registers every catalog type into `registry`, with the configuration's services.
    ///
    /// Nothing touches the disk here: SendList's built-in store opens its file on the first
    /// send, so a bad state directory fails that send with a clear message rather than the
    /// daemon's start.
    ///
    /// - Throws: `ViewModelDefinitionError` if a name is already registered in `registry`.
    public static func register(into registry: inout ViewModelRegistry, configuration: CatalogConfiguration) throws(ViewModelDefinitionError) {
        let services = configuration.services
        try registry.register(Counter.self)
        try registry.register(Login.self, services: services.auth)
        try registry.register(Follow.self, services: services.follow)
        try registry.register(TextField.self)
        try registry.register(TodoList.self)
        try registry.register(TodoRecord.self)
        try registry.register(Search.self, services: services.search)
        // One store shared by the types that use it (one file, one writer).
        let sendStore = configuration.sendStore
        try registry.register(SendList.self, services: sendStore)
        try registry.register(SendReceipt.self)
        try registry.register(SendHistory.self, services: sendStore)
    }

    /// A registry holding exactly the catalog.
    public static func registry(configuration: CatalogConfiguration) throws(ViewModelDefinitionError) -> ViewModelRegistry {
        var registry = ViewModelRegistry()
        try register(into: &registry, configuration: configuration)
        return registry
    }
}
