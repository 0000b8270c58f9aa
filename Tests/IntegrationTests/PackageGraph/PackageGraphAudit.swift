/// Compares Package.swift's targets with what their sources import, with the module table of
/// the Architecture article and with the layering rules it lists. Each difference
/// is one sentence; none means they all agree.
struct PackageGraphAudit {
    var manifest: PackageManifest
    /// What each target's files import, by target name.
    var imports: [String: SourceImports]
    var table: ModuleTable

    /// The modules of the C library; among library targets only `Posix` may import them.
    static let libcModules: Set<String> = ["Glibc", "Darwin", "Musl"]

    /// Modules that must not reach (import, directly or through other modules) the ones listed.
    static let forbiddenReach: [(module: String, unreachable: [String], why: String)] = [
        ("VMServer", ["Posix"], "the server is transport-free and tested in-process"),
        ("ViewModelKit", ["JSONRPC", "VMProtocol", "Posix"], "the authoring API knows nothing of the wire or the OS"),
        ("VMClient", ["ViewModelKit", "ReactiveCore"], "the client speaks the wire to any daemon; ViewModelClient joins it to the kit"),
    ]

    /// Every difference found, in a stable order.
    func problems() -> [String] {
        declarationProblems() + tableProblems() + ruleProblems()
    }

    private var targetsByName: [String: PackageManifest.Target] {
        Dictionary(manifest.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each target's dependencies against its files' imports.
    func declarationProblems() -> [String] {
        let targets = targetsByName
        var problems: [String] = []
        for target in manifest.targets {
            let imported = imports[target.name]?.modules ?? [:]
            for dependency in target.dependencies {
                guard let declared = targets[dependency] else {
                    problems.append("\(target.name) depends on \(dependency), which is not a target of Package.swift")
                    continue
                }
                if declared.kind == .executable {
                    if target.kind != .test {
                        problems.append("\(target.name) depends on the executable \(dependency); only test targets may (to run it)")
                    }
                } else if imported[dependency] == nil {
                    problems.append("\(target.name) declares \(dependency) but no file under \(target.directory) imports it")
                }
            }
            for (module, file) in imported.sorted(by: { $0.key < $1.key })
            where targets[module] != nil && !target.dependencies.contains(module) {
                problems.append("\(target.name) imports \(module) (\(target.directory)/\(file)) but does not declare it")
            }
        }
        return problems
    }

    /// The article's rows against the non-test targets, their dependencies and layers.
    func tableProblems() -> [String] {
        let drawn = manifest.targets.filter { $0.kind != .test }
        let layers = self.layers()
        var problems: [String] = []
        var rows: [String: ModuleTable.Row] = [:]
        for row in table.rows {
            if rows[row.module] != nil { problems.append("\(ModuleTable.documentName): \(row.module) has two rows") }
            rows[row.module] = row
        }
        for target in drawn {
            guard let row = rows[target.name] else {
                problems.append("\(ModuleTable.documentName): no row for \(target.name) (layer \(layers[target.name] ?? -1), imports \(list(target.dependencies)))")
                continue
            }
            if Set(row.imports) != Set(target.dependencies) {
                problems.append("\(ModuleTable.documentName): \(target.name) is drawn importing \(list(row.imports)); Package.swift declares \(list(target.dependencies))")
            }
            if let layer = layers[target.name], row.layer != layer {
                problems.append("\(ModuleTable.documentName): \(target.name) is drawn in layer \(row.layer); its imports put it in layer \(layer)")
            }
        }
        let drawnNames = Set(drawn.map(\.name))
        for row in table.rows where !drawnNames.contains(row.module) {
            problems.append("\(ModuleTable.documentName): \(row.module) has a row but is not a non-test target of Package.swift")
        }
        return problems
    }

    /// The layering rules: libc only in Posix, and the modules that must not reach others.
    func ruleProblems() -> [String] {
        var problems: [String] = []
        for target in manifest.targets where target.kind == .library && target.name != "Posix" {
            let imported = imports[target.name]?.modules ?? [:]
            for module in Self.libcModules.sorted() {
                if let file = imported[module] {
                    problems.append("\(target.name) imports \(module) (\(target.directory)/\(file)); only Posix talks to libc")
                }
            }
        }
        for rule in Self.forbiddenReach {
            let reached = reach(from: rule.module)
            for module in rule.unreachable where reached.contains(module) {
                problems.append("\(rule.module) reaches \(module), but must not: \(rule.why)")
            }
        }
        return problems
    }

    /// Every module `module` depends on, directly or through others (not itself).
    func reach(from module: String) -> Set<String> {
        let targets = targetsByName
        var reached: Set<String> = []
        var pending = targets[module]?.dependencies ?? []
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            pending += targets[next]?.dependencies ?? []
        }
        return reached
    }

    /// Each non-test target's layer: 0 without dependencies, else one above its highest
    /// dependency's. A target on a dependency cycle gets none (SwiftPM refuses cycles anyway).
    func layers() -> [String: Int] {
        let targets = targetsByName
        var layers: [String: Int] = [:]
        var visiting: Set<String> = []
        func layer(of name: String) -> Int? {
            if let known = layers[name] { return known }
            guard let target = targets[name], visiting.insert(name).inserted else { return nil }
            defer { visiting.remove(name) }
            var highest = -1
            for dependency in target.dependencies {
                guard let below = layer(of: dependency) else { return nil }
                highest = max(highest, below)
            }
            layers[name] = highest + 1
            return highest + 1
        }
        for target in manifest.targets where target.kind != .test { _ = layer(of: target.name) }
        return layers
    }

    private func list(_ modules: [String]) -> String {
        modules.isEmpty ? "nothing" : modules.sorted().joined(separator: ", ")
    }
}
