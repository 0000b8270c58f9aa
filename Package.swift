// swift-tools-version:6.0
// vmd: a daemon that hosts view models and serves them over JSON-RPC 2.0 on a Unix socket.
// No package dependencies: the toolchain is all vmd needs (README.md, first paragraph).
// Target dependencies below are the module graph: each lists exactly the modules of this package
// that the target's files import. Sources/ViewModelDaemon/ViewModelDaemon.docc/Architecture.md draws it in layers;
// Tests/IntegrationTests/PackageGraph/PackageGraphTests.swift fails when the three disagree.
import PackageDescription

let package = Package(
    name: "vmd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vmd", targets: ["vmd"]),
        .executable(name: "vmctl", targets: ["vmctl"]),
        // What an app depends on, by version (no target below uses unsafe flags): one job each.
        // Each product lists every module its public API names (.ci/public-surface checks it,
        // and lists that API in Tests/PublicSurface); the other modules are `package`.
        // Authoring view models: the kit and the two modules its API is made of.
        .library(name: "ViewModelKit", targets: ["ViewModelKit", "ReactiveCore", "JSONCore"]),
        // Testing them on virtual time: the harness and the test scheduler.
        .library(name: "ViewModelTesting", targets: ["ViewModelTesting", "ReactiveTesting", "ViewModelKit", "ReactiveCore", "JSONCore"]),
        // Serving them: an app's daemon is one `ViewModelDaemon.main` call.
        .library(name: "ViewModelDaemon", targets: ["ViewModelDaemon", "ViewModelKit", "ReactiveCore", "JSONCore"]),
        // vmd's built-in view models, opt-in for an app's daemon.
        .library(name: "ViewModelCatalog", targets: ["ViewModelCatalog", "ViewModelKit", "ReactiveCore", "JSONCore"]),
        // Talking to a daemon from Swift, in the wire's vocabulary (VMProtocol's method types).
        .library(name: "VMClient", targets: ["VMClient", "VMProtocol", "JSONRPC", "JSONCore"]),
        // Talking to it through the view models an app links: typed handles from their `Ports`.
        .library(name: "ViewModelClient", targets: [
            "ViewModelClient", "VMClient", "VMProtocol", "JSONRPC", "JSONCore", "ViewModelKit", "ReactiveCore",
        ]),
        // The reactive core alone, for code that is not a view model.
        .library(name: "ReactiveCore", targets: ["ReactiveCore"]),
    ],
    targets: [
        // Leaves.
        // No unsafe flags (SwiftPM refuses them in a versioned dependency): the generic event
        // paths are @inlinable instead, so they specialize in the modules that use them.
        .target(name: "ReactiveCore"),
        .target(name: "JSONCore"),
        .target(name: "CPosix"),
        .target(name: "Posix", dependencies: ["CPosix"]),
        .target(name: "CommandLineKit", dependencies: []),

        // The view-model kit and the wire.
        .target(name: "ReactiveTesting", dependencies: ["ReactiveCore"]),
        .target(name: "CViewModelKit"),
        .target(name: "ViewModelKit", dependencies: ["ReactiveCore", "JSONCore", "CViewModelKit"]),
        .target(name: "JSONRPC", dependencies: ["JSONCore"]),
        .target(name: "VMProtocol", dependencies: ["JSONRPC", "JSONCore"]),
        .target(name: "ViewModelTesting", dependencies: ["ViewModelKit", "ReactiveCore", "ReactiveTesting", "JSONCore", "VMProtocol"]),

        // What vmd serves, and how.
        .target(name: "ViewModelCatalog", dependencies: ["ViewModelKit", "ReactiveCore", "JSONCore", "Posix"]),
        .target(name: "VMServer", dependencies: ["VMProtocol", "JSONRPC", "JSONCore", "ViewModelKit", "ReactiveCore"]),
        .target(name: "VMTransport", dependencies: ["VMServer", "Posix", "VMProtocol", "JSONRPC", "JSONCore", "ReactiveCore"]),
        .target(name: "VMClient", dependencies: ["VMProtocol", "JSONRPC", "JSONCore", "Posix"]),
        // VMClient knows only the wire; this joins it to the kit for apps that link their view models.
        .target(name: "ViewModelClient", dependencies: ["VMClient", "ViewModelKit", "VMProtocol", "JSONCore"]),
        // The daemon entry point any app's main.swift calls (vmd's included).
        .target(name: "ViewModelDaemon", dependencies: [
            "VMTransport", "VMServer", "VMProtocol", "ViewModelKit", "CommandLineKit", "Posix",
        ]),

        // Thin executables.
        .executableTarget(name: "vmd", dependencies: ["ViewModelDaemon", "ViewModelCatalog"]),
        .executableTarget(name: "vmctl", dependencies: ["VMClient", "CommandLineKit", "JSONCore", "Posix", "VMProtocol"]),
        .executableTarget(name: "vmd-bench", dependencies: [
            "ReactiveCore", "JSONCore", "JSONRPC", "Posix", "VMClient", "ViewModelKit", "ViewModelCatalog", "VMServer", "VMProtocol",
        ]),

        // Fuzz targets (corpus replayer in a normal build; libFuzzer under .ci/fuzz).
        .executableTarget(name: "vmd-fuzz", dependencies: [
            "JSONCore", "JSONRPC", "Posix", "ReactiveCore", "VMProtocol", "VMServer", "ViewModelCatalog", "ViewModelKit",
        ]),

        // Test support and tests.
        // A daemon under another name with one type, for the entry point's integration tests.
        .executableTarget(name: "greeterd", dependencies: ["ViewModelDaemon", "ViewModelKit", "ReactiveCore"], path: "Tests/TestApp"),
        .target(name: "VMTestSupport", dependencies: [
            "Posix", "JSONCore", "VMTransport", "VMServer", "VMProtocol", "ViewModelKit", "ViewModelCatalog", "ReactiveTesting",
        ]),
        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "ReactiveTesting"]),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore", "ReactiveTesting"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSONCore", "ReactiveTesting"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix", "VMTestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "ViewModelKitTests", dependencies: ["ViewModelKit", "ViewModelTesting", "ReactiveCore", "ReactiveTesting", "JSONCore"]),
        .testTarget(name: "ViewModelCatalogTests", dependencies: ["ViewModelCatalog", "ViewModelKit", "ViewModelTesting", "ReactiveCore", "ReactiveTesting", "JSONCore", "Posix"]),
        .testTarget(name: "VMProtocolTests", dependencies: ["VMProtocol", "JSONCore"]),
        .testTarget(name: "VMServerTests", dependencies: ["VMTestSupport", "VMServer", "VMProtocol", "JSONCore", "ViewModelKit", "ViewModelCatalog", "ReactiveCore", "ReactiveTesting"]),
        .testTarget(name: "IntegrationTests", dependencies: [
            "vmd", "vmctl", "greeterd", "vmd-fuzz", "VMTestSupport", "VMClient", "VMProtocol", "JSONRPC", "JSONCore", "Posix",
            "VMTransport", "VMServer", "ReactiveCore", "ReactiveTesting", "ViewModelClient", "ViewModelCatalog",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
