// swift-tools-version:6.0
// vmd: a daemon that hosts view models and serves them over JSON-RPC 2.0 on a Unix socket.
// The design card says "packages: none": this manifest declares no package dependencies.
// Target dependencies below are the module graph; lower layers never import higher ones.
import PackageDescription

let package = Package(
    name: "vmd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vmd", targets: ["vmd"]),
        .executable(name: "vmctl", targets: ["vmctl"]),
        .library(name: "VMClient", targets: ["VMClient"]),
        .library(name: "ViewModelKit", targets: ["ViewModelKit"]),
        .library(name: "ReactiveCore", targets: ["ReactiveCore"]),
    ],
    targets: [
        // Layer 0: leaves.
        // Cross-module optimization: operators are generic, and unspecialized generic code on
        // the event path costs ~15x (metadata lookups per event); measured in vmd-bench.
        .target(name: "ReactiveCore", swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        .target(name: "JSONCore"),
        .target(name: "CPosix"),
        .target(name: "Posix", dependencies: ["CPosix"]),
        .target(name: "CommandLineKit", dependencies: []),

        // Layer 1: the view-model kit and the wire.
        .target(name: "ReactiveTesting", dependencies: ["ReactiveCore"]),
        .target(name: "ViewModelKit", dependencies: ["ReactiveCore", "JSONCore"], swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        .target(name: "JSONRPC", dependencies: ["JSONCore"]),
        .target(name: "VMProtocol", dependencies: ["JSONRPC", "JSONCore"]),

        // Layer 2: what vmd serves, and how.
        .target(name: "ViewModelCatalog", dependencies: ["ViewModelKit", "ReactiveCore", "JSONCore", "Posix"]),
        .target(name: "VMServer", dependencies: ["VMProtocol", "JSONRPC", "JSONCore", "ViewModelKit", "ReactiveCore"]),
        .target(name: "VMDaemon", dependencies: ["VMServer", "Posix", "VMProtocol", "JSONRPC", "JSONCore", "ViewModelKit", "ReactiveCore"]),
        .target(name: "VMClient", dependencies: ["VMProtocol", "JSONRPC", "JSONCore", "Posix"]),

        // Layer 3: thin executables.
        .executableTarget(name: "vmd", dependencies: [
            "VMDaemon", "ViewModelCatalog", "CommandLineKit", "Posix", "VMServer", "VMProtocol", "ViewModelKit", "ReactiveCore",
        ]),
        .executableTarget(name: "vmctl", dependencies: ["VMClient", "CommandLineKit", "JSONCore", "Posix"]),
        .executableTarget(name: "vmd-bench", dependencies: [
            "ReactiveCore", "JSONCore", "JSONRPC", "Posix", "VMClient", "ViewModelKit", "ViewModelCatalog", "VMServer", "VMProtocol",
        ]),

        // Fuzz targets (corpus replayer in a normal build; libFuzzer under .ci/fuzz).
        .executableTarget(name: "vmd-fuzz", dependencies: [
            "JSONCore", "JSONRPC", "Posix", "ReactiveCore", "VMProtocol", "VMServer", "ViewModelCatalog", "ViewModelKit",
        ]),

        // Test support and tests.
        .target(name: "VMTestSupport", dependencies: ["Posix", "JSONCore", "JSONRPC", "VMDaemon", "VMServer"]),
        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "ReactiveTesting"]),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSONCore"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "ViewModelKitTests", dependencies: ["ViewModelKit", "ReactiveCore", "ReactiveTesting", "JSONCore"]),
        .testTarget(name: "ViewModelCatalogTests", dependencies: ["ViewModelCatalog", "ViewModelKit", "ReactiveCore", "ReactiveTesting", "JSONCore"]),
        .testTarget(name: "VMProtocolTests", dependencies: ["VMProtocol", "JSONRPC", "JSONCore"]),
        .testTarget(name: "VMServerTests", dependencies: ["VMServer", "VMProtocol", "JSONRPC", "JSONCore", "ViewModelKit", "ViewModelCatalog", "ReactiveCore", "ReactiveTesting"]),
        .testTarget(name: "IntegrationTests", dependencies: [
            "vmd", "vmctl", "vmd-fuzz", "VMTestSupport", "VMClient", "VMProtocol", "JSONRPC", "JSONCore", "Posix",
            "VMDaemon", "VMServer", "ReactiveCore",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
