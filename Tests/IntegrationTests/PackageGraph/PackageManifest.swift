/// The targets of Package.swift as its text declares them, read without running SwiftPM.
///
/// The reader understands the declarative subset the manifest is written in: calls with
/// labelled arguments, arrays, string literals and `.member` values (`.target(name: "X",
/// dependencies: ["Y"], path: "P")`). Anything else inside `targets:` — a variable, a
/// condition, a `.product(...)` dependency — is a ``ReadingError``, so a manifest that
/// outgrows the reader fails ``PackageGraphTests`` loudly instead of being checked partly.
struct PackageManifest: Equatable {
    /// One `.target`, `.executableTarget` or `.testTarget` entry.
    struct Target: Equatable {
        enum Kind: String, Equatable {
            case library = "target"
            case executable = "executableTarget"
            case test = "testTarget"
        }

        var name: String
        var kind: Kind
        /// The `dependencies:` list as written (by-name strings), in order.
        var dependencies: [String]
        /// The `path:` argument, if any.
        var path: String?

        /// Where SwiftPM looks for the target's sources, relative to the package root.
        var directory: String { path ?? (kind == .test ? "Tests/" : "Sources/") + name }
    }

    /// Why a manifest text could not be read.
    struct ReadingError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    var targets: [Target]

    /// Reads `text`, the contents of a Package.swift.
    init(text: String) throws(ReadingError) {
        var parser = ManifestParser(tokens: try ManifestToken.tokenize(text))
        let package = try parser.packageCall()
        guard case .array(let entries)? = package.argument("targets") else {
            throw ReadingError(description: "Package(...) has no targets: [...] array")
        }
        targets = try entries.map(Self.target(from:))
    }

    private static func target(from value: ManifestValue) throws(ReadingError) -> Target {
        guard case .call(let function, let arguments) = value, let kind = Target.Kind(rawValue: function) else {
            throw ReadingError(description: "a targets entry is not .target/.executableTarget/.testTarget: \(value)")
        }
        guard case .string(let name)? = value.argument("name") else {
            throw ReadingError(description: ".\(function)(...) without a name: string")
        }
        var dependencies: [String] = []
        switch value.argument("dependencies") {
        case nil: break
        case .array(let items)?:
            for item in items {
                guard case .string(let dependency) = item else {
                    throw ReadingError(description: "\(name): dependency \(item) is not a by-name string")
                }
                dependencies.append(dependency)
            }
        case let other?:
            throw ReadingError(description: "\(name): dependencies is not an array: \(other)")
        }
        var path: String?
        switch value.argument("path") {
        case nil: break
        case .string(let written)?: path = written
        case let other?: throw ReadingError(description: "\(name): path is not a string: \(other)")
        }
        // `exclude:` and `sources:` would change which files are the target's: teach
        // SourceImports about them before accepting them here.
        let known: Set<String> = ["name", "dependencies", "path", "resources", "swiftSettings", "cSettings", "linkerSettings"]
        for (label, _) in arguments where !known.contains(label ?? "") {
            throw ReadingError(description: "\(name): argument \(label ?? "_") is not one this reader knows")
        }
        return Target(name: name, kind: kind, dependencies: dependencies, path: path)
    }
}
