/// What vmd tells the catalog when it registers it: where durable state lives, and which
/// services to use.
public struct CatalogConfiguration: Sendable {
    /// The daemon's state directory (`--state-dir`, else `$XDG_STATE_HOME/vmd`, else
    /// `~/.local/state/vmd`; vmd decides). SendList's built-in store keeps its file here
    /// (``FileSendStore/fileName``); it is created, mode 0700, on the first send.
    public var stateDirectory: String
    /// The services; the built-in ones unless overridden.
    public var services: CatalogServices

    public init(stateDirectory: String, services: CatalogServices = CatalogServices()) {
        self.stateDirectory = stateDirectory
        self.services = services
    }

    /// The SendList store these settings select.
    package var sendStore: any SendStore {
        services.sendStore ?? FileSendStore(stateDirectory: stateDirectory)
    }
}
