import Foundation
import Testing

/// Package.swift against the sources' `import` lines, and against the module table and the
/// layering rules of the Architecture article (`ModuleTable.document`, which also says what is
/// enforced).
@Suite("Package graph")
struct PackageGraphTests {
    /// The repository root, four components up from this file (Tests/IntegrationTests/PackageGraph/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The audit of this repository as it is on disk.
    static func repositoryAudit() throws -> PackageGraphAudit {
        let manifest = try PackageManifest(text: String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
        var imports: [String: SourceImports] = [:]
        for target in manifest.targets {
            imports[target.name] = try SourceImports(directory: root.appendingPathComponent(target.directory))
        }
        let table = try ModuleTable(text: String(contentsOf: root.appendingPathComponent(ModuleTable.document), encoding: .utf8))
        return PackageGraphAudit(manifest: manifest, imports: imports, table: table)
    }

    @Test("Package.swift declares exactly the package modules each target's files import")
    func declarationsMatchImports() throws {
        let audit = try Self.repositoryAudit()
        // A reader that found nothing would find no difference either.
        #expect(audit.manifest.targets.count >= 20, "read only \(audit.manifest.targets.map(\.name))")
        #expect(audit.imports["VMTransport"]?.modules["VMServer"] != nil, "no import of VMServer read from Sources/VMTransport")
        let problems = audit.declarationProblems()
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("the Architecture article's module table is Package.swift's graph, with every module's layer")
    func moduleTableMatchesManifest() throws {
        let audit = try Self.repositoryAudit()
        #expect(audit.table.rows.count >= 20, "read only \(audit.table.rows.map(\.module))")
        let problems = audit.tableProblems()
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("only Posix imports libc, VMServer reaches no socket and ViewModelKit no wire")
    func layeringRulesHold() throws {
        let audit = try Self.repositoryAudit()
        #expect(audit.imports["Posix"]?.modules["Glibc"] != nil, "Posix's own libc import was not read")
        let problems = audit.ruleProblems()
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    // The checker itself, on small made-up packages: each kind of drift is reported.

    static let fixtureManifest = """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "fixture",
            platforms: [.macOS(.v15)],
            products: [.library(name: "Alpha", targets: ["Alpha"])],
            targets: [
                .target(name: "Alpha"), // a leaf
                .target(name: "Beta", dependencies: ["Alpha"]),
                /* Gamma declares Alpha too, but imports only Beta. */
                .executableTarget(name: "gamma", dependencies: ["Beta", "Alpha"]),
                .testTarget(name: "BetaTests", dependencies: ["Beta", "gamma"], path: "Tests/Unit"),
            ],
            swiftLanguageModes: [.v6]
        )
        """

    static func fixtureAudit(tableRows: [String]) throws -> PackageGraphAudit {
        let article = (["# fixture", ModuleTable.beginMarker + " -->", "| layer | module | imports | job |", "|---|---|---|---|"]
            + tableRows + [ModuleTable.endMarker]).joined(separator: "\n")
        return PackageGraphAudit(
            manifest: try PackageManifest(text: fixtureManifest),
            imports: [
                "Alpha": SourceImports(modules: ["Foundation": "A.swift"]),
                "Beta": SourceImports(modules: ["Alpha": "B.swift", "Glibc": "B.swift"]),
                "gamma": SourceImports(modules: ["Beta": "main.swift", "Delta": "main.swift"]),
                "BetaTests": SourceImports(modules: ["Beta": "T.swift", "Alpha": "T.swift", "Testing": "T.swift"]),
            ],
            table: try ModuleTable(text: article))
    }

    @Test("the manifest reader finds each target's kind, dependencies and directory")
    func readsFixtureManifest() throws {
        let manifest = try PackageManifest(text: Self.fixtureManifest)
        #expect(manifest.targets == [
            .init(name: "Alpha", kind: .library, dependencies: [], path: nil),
            .init(name: "Beta", kind: .library, dependencies: ["Alpha"], path: nil),
            .init(name: "gamma", kind: .executable, dependencies: ["Beta", "Alpha"], path: nil),
            .init(name: "BetaTests", kind: .test, dependencies: ["Beta", "gamma"], path: "Tests/Unit"),
        ])
        #expect(manifest.targets.map(\.directory) == ["Sources/Alpha", "Sources/Beta", "Sources/gamma", "Tests/Unit"])
    }

    @Test("an unused dependency and an undeclared import are reported; system modules and run executables are not")
    func reportsDeclarationDrift() throws {
        let audit = try Self.fixtureAudit(tableRows: [])
        #expect(audit.declarationProblems() == [
            "gamma declares Alpha but no file under Sources/gamma imports it",
            "BetaTests imports Alpha (Tests/Unit/T.swift) but does not declare it",
        ])
    }

    @Test("a missing row, wrong imports, a wrong layer and a row for no target are reported")
    func reportsTableDrift() throws {
        let audit = try Self.fixtureAudit(tableRows: [
            "| 2 | `gamma` | `Beta` | the app |",
            "| 2 | `Beta` | `Alpha` | the middle |",
            "| 0 | `Omega` | — | gone |",
        ])
        #expect(audit.layers() == ["Alpha": 0, "Beta": 1, "gamma": 2])
        #expect(audit.tableProblems() == [
            "Architecture.md: no row for Alpha (layer 0, imports nothing)",
            "Architecture.md: Beta is drawn in layer 2; its imports put it in layer 1",
            "Architecture.md: gamma is drawn importing Beta; Package.swift declares Alpha, Beta",
            "Architecture.md: Omega has a row but is not a non-test target of Package.swift",
        ])
    }

    @Test("a library importing libc and a module reaching a forbidden one are reported")
    func reportsRuleBreaks() throws {
        let manifest = try PackageManifest(text: """
            let package = Package(name: "p", targets: [
                .target(name: "Posix"),
                .target(name: "ViewModelKit"),
                .target(name: "Wire", dependencies: ["Posix"]),
                .target(name: "VMServer", dependencies: ["ViewModelKit", "Wire"]),
            ])
            """)
        let audit = PackageGraphAudit(
            manifest: manifest,
            imports: ["Posix": SourceImports(modules: ["Glibc": "P.swift"]),
                      "Wire": SourceImports(modules: ["Posix": "W.swift", "Darwin": "W.swift"])],
            table: ModuleTable(rows: []))
        #expect(audit.reach(from: "VMServer") == ["ViewModelKit", "Wire", "Posix"])
        #expect(audit.ruleProblems() == [
            "Wire imports Darwin (Sources/Wire/W.swift); only Posix talks to libc",
            "VMServer reaches Posix, but must not: the server is transport-free and tested in-process",
        ])
    }

    @Test("the manifest reader refuses what it cannot check: product dependencies, variables, exclusions")
    func refusesUnreadableManifests() {
        let unreadable = [
            #"let package = Package(name: "p", targets: [.target(name: "A", dependencies: [.product(name: "X", package: "x")])])"#,
            #"let package = Package(name: "p", targets: [.target(name: "A", dependencies: shared)])"#,
            #"let package = Package(name: "p", targets: [.target(name: "A", exclude: ["Old"])])"#,
            #"let package = Package(name: "p", targets: [.target(name: "A")] + more)"#,
            #"let package = Package(name: "p")"#,
        ]
        for text in unreadable {
            #expect(throws: PackageManifest.ReadingError.self, "\(text)") { try PackageManifest(text: text) }
        }
    }

    @Test("import lines count with attributes, access levels and kinds, but not in comments or strings")
    func readsImportLines() {
        let quotes = String(repeating: "\"", count: 3)
        let source = [
            "@testable import Alpha",
            "@preconcurrency public import Beta.Sub",
            "  import struct Gamma.Thing",
            "#if canImport(Delta)",
            "import Delta",
            "#endif",
            "// import Commented",
            "/* a block",
            "import InBlock",
            "*/",
            "let text = \(quotes)",
            "import InString",
            "\(quotes)",
            "let important = 1",
            "import Epsilon // trailing comment",
        ].joined(separator: "\n")
        #expect(SourceImports.imports(in: source) == ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"])
    }
}
