// swift-tools-version:6.0
// Inbox: an app that serves its own view models with vmd, depending on vmd the way any app
// does, by version. `.ci/build-examples` builds and tests it against a temporary tagged
// clone of the checkout (VMD_PACKAGE_URL); without that variable it uses the checkout
// around it, so `swift build` works here while the kit is being changed.
import PackageDescription

/// Where vmd comes from, and the package identity SwiftPM gives it (the last path
/// component, without ".git"): products are looked up by that identity.
let vmd: (dependency: Package.Dependency, identity: String) = {
    if let url = Context.environment["VMD_PACKAGE_URL"], !url.isEmpty {
        return (.package(url: url, from: "0.1.0"), identity(of: url))
    }
    // The checkout this folder lives in (Examples/Inbox → the repository root).
    let root = Context.packageDirectory.split(separator: "/").dropLast(2).joined(separator: "/")
    return (.package(path: "../.."), identity(of: root))
}()

func identity(of location: String) -> String {
    let last = location.split(separator: "/").last.map(String.init) ?? location
    return (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
}

let package = Package(
    name: "Inbox",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "inboxd", targets: ["inboxd"]),
        .library(name: "InboxKit", targets: ["InboxKit"]),
    ],
    dependencies: [vmd.dependency],
    targets: [
        .target(name: "InboxKit", dependencies: [
            .product(name: "ViewModelKit", package: vmd.identity),
        ]),
        .executableTarget(name: "inboxd", dependencies: [
            "InboxKit",
            .product(name: "ViewModelDaemon", package: vmd.identity),
        ]),
        // A Swift client linking InboxKit: typed handles from Inbox's own Ports.
        .executableTarget(name: "inbox-unread", dependencies: [
            "InboxKit",
            .product(name: "ViewModelClient", package: vmd.identity),
        ]),
        .testTarget(name: "InboxKitTests", dependencies: [
            "InboxKit",
            .product(name: "ViewModelKit", package: vmd.identity),
            .product(name: "ViewModelTesting", package: vmd.identity),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
