import ViewModelCatalog
import ViewModelDaemon

// vmd is the daemon entry point serving the built-in catalog (Sources/ViewModelCatalog/Catalog.swift).
ViewModelDaemon.main(
    name: "vmd", summary: "Host view-model instances and serve them over JSON-RPC 2.0 on a Unix socket."
) { types, setup in
    try Catalog.register(into: &types, configuration: CatalogConfiguration(stateDirectory: setup.stateDirectory))
}
