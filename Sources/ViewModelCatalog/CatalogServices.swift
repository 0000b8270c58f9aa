/// The services the catalog's view models use: the built-in ones by default, any of them
/// replaceable (tests inject scripted ones; an embedder could inject real ones).
public struct CatalogServices: Sendable {
    /// Login's authentication; built-in: ``DemoAuthService`` (demo@example.com / secret).
    public var auth: any AuthService
    /// Makes each Follow instance's service; built-in: ``InMemoryFollowService/factory``.
    public var follow: FollowServiceFactory
    /// SendList's store; `nil` means the built-in ``FileSendStore`` in the configuration's
    /// state directory.
    public var sendStore: (any SendStore)?
    /// Search's index; built-in: ``InMemorySearchIndex`` over a list of fruits.
    public var search: any SearchIndex = InMemorySearchIndex()

    public init(
        auth: any AuthService = DemoAuthService(),
        follow: @escaping FollowServiceFactory = InMemoryFollowService.factory,
        sendStore: (any SendStore)? = nil
    ) {
        self.auth = auth
        self.follow = follow
        self.sendStore = sendStore
    }
}
