import Foundation

/// The modules a target's Swift files import, read from their `import` lines.
///
/// A line counts when, after optional attributes (`@testable`, `@preconcurrency`, …) and an
/// access level, it says `import M`, `import M.Sub` or `import struct M.Type`; lines inside
/// `/* */` comments and `"""` string literals do not. Imports under `#if canImport(...)` count
/// like any other: a conditional import of a package module still needs its dependency.
struct SourceImports: Equatable {
    /// Each imported module, with the first file (relative to the target's directory) that imports it.
    var modules: [String: String]

    init(modules: [String: String]) { self.modules = modules }

    /// Reads every `.swift` file under `directory`, recursively.
    init(directory: URL) throws {
        var modules: [String: String] = [:]
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path } ?? []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = String(file.path.dropFirst(directory.path.count)).trimmingCharacters(in: ["/"])
            for module in Self.imports(in: text) where modules[module] == nil {
                modules[module] = relative
            }
        }
        self.modules = modules
    }

    /// The modules `source` imports, in the order of their lines.
    static func imports(in source: String) -> [String] {
        var found: [String] = []
        var inBlockComment = false
        var inMultilineString = false
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let startsInside = inBlockComment || inMultilineString
            if inBlockComment {
                if line.contains("*/") { inBlockComment = false }
            } else if line.hasPrefix("/*"), !line.contains("*/") {
                inBlockComment = true
            }
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle() }
            if !startsInside, let module = importedModule(line) { found.append(module) }
        }
        return found
    }

    /// The module an import declaration names, or nil when `line` is not one.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
        if let first = words.first, accessLevels.contains(first) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"]
        if let first = words.first, kinds.contains(first) { words = words.dropFirst() }
        guard let path = words.first,
              let module = path.split(separator: ".").first.map(String.init),
              module.first.map({ $0.isLetter || $0 == "_" }) == true,
              module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return module
    }
}
