import Foundation
import Testing

/// An idiom that turns off a check of the compiler or the runtime.
enum UncheckedIdiom: String, CaseIterable, Sendable {
    case exclusivityUnchecked = "@exclusivity(unchecked)"
    case unsafeCast = "unsafeDowncast / unsafeBitCast"
    case unmanaged = "Unmanaged"
    case memoryReinterpretation = "raw memory reads and writes"
    case nonisolatedUnsafe = "nonisolated(unsafe)"
    case uncheckedSendable = "@unchecked Sendable"
    case cThreadLocal = "C thread-local"

    /// What finds it in a line of code (comments already removed). Views of byte buffers
    /// (`withUnsafeBufferPointer`, `UnsafeRawBufferPointer` parameters) are not listed: they are
    /// how every reader and writer of bytes hands its buffer on; what is listed is reading or
    /// writing memory as another type than the one it holds, and memory allocated by hand (on the
    /// heap or, with `withUnsafeTemporaryAllocation`, on the stack).
    var pattern: String {
        switch self {
        case .exclusivityUnchecked: #"@exclusivity\(unchecked\)"#
        case .unsafeCast: #"\bunsafe(Downcast|BitCast)\("#
        case .unmanaged: #"\bUnmanaged\b|_withUnsafeGuaranteedRef"#
        case .memoryReinterpretation:
            #"withUnsafe(Mutable)?Bytes\(of|load\(fromByteOffset|loadUnaligned\(|storeBytes\(of|assumingMemoryBound|bindMemory|withMemoryRebound|RawPointer\(bitPattern|\.allocate\(capacity|withUnsafeTemporaryAllocation"#
        case .nonisolatedUnsafe: #"nonisolated\(unsafe\)"#
        case .uncheckedSendable: #"@unchecked\s+Sendable"#
        case .cThreadLocal: #"\b(_Thread_local|__thread|thread_local)\b"#
        }
    }

    /// The idioms used in `source` (a Swift, C or header file's text), by line number.
    static func occurrences(in source: String) -> [(line: Int, idiom: UncheckedIdiom)] {
        var found: [(Int, UncheckedIdiom)] = []
        var inBlockComment = false
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = codeOnly(String(line), inBlockComment: &inBlockComment)
            for idiom in allCases where code.range(of: idiom.pattern, options: .regularExpression) != nil {
                found.append((index + 1, idiom))
            }
        }
        return found
    }

    /// The lines of `source` whose `@exclusivity(unchecked)` is not written as the release-only
    /// attribute: alone on its line, between a `#if !DEBUG` line and an `#endif` line, so that
    /// the declaration after them keeps its dynamic exclusivity checks in debug builds.
    static func exclusivityOutsideReleaseOnlyBlocks(in source: String) -> [Int] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return occurrences(in: source).filter { $0.idiom == .exclusivityUnchecked }.map(\.line).filter { line in
            let index = line - 1
            return !(index > 0 && index + 1 < lines.count
                && lines[index - 1] == "#if !DEBUG" && lines[index] == "@exclusivity(unchecked)"
                && lines[index + 1] == "#endif")
        }
    }

    /// `line` without its comments (`//…`, `/* … */`, possibly continuing a block comment).
    static func codeOnly(_ line: String, inBlockComment: inout Bool) -> String {
        var code = ""
        var rest = Substring(line)
        while !rest.isEmpty {
            if inBlockComment {
                guard let end = rest.range(of: "*/") else { return code }
                rest = rest[end.upperBound...]
                inBlockComment = false
            } else if let start = rest.range(of: "/*"), rest.range(of: "//").map({ start.lowerBound < $0.lowerBound }) ?? true {
                code += rest[..<start.lowerBound]
                rest = rest[start.upperBound...]
                inBlockComment = true
            } else if let comment = rest.range(of: "//") {
                return code + rest[..<comment.lowerBound]
            } else {
                return code + rest
            }
        }
        return code
    }
}

/// Every unchecked idiom in Sources/ lives in a file UncheckedIdiomHomes.swift lists for it,
/// with the invariant that makes it sound and the test that checks it.
@Suite("Unchecked idioms")
struct UncheckedIdiomsTests {
    static let sources = PackageGraphTests.root.appendingPathComponent("Sources")

    /// Whether the file at `path` (under Sources/) is what an app author reads to learn the kit
    /// or the reactive core: the kit's Authoring folder, and every ReactiveCore operator file
    /// that declares public API (its sinks and subscriptions live in files of their own).
    static func isAuthorFacing(_ path: String) throws -> Bool {
        if path.hasPrefix("ViewModelKit/Authoring/") { return true }
        guard path.hasPrefix("ReactiveCore/Operators/") else { return false }
        return try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).contains("public ")
    }

    /// Every idiom found under Sources/, as "path: idiom" for each (path, idiom) pair.
    static func scanSources() throws -> [String: Set<UncheckedIdiom>] {
        var found: [String: Set<UncheckedIdiom>] = [:]
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard ["swift", "c", "h"].contains(url.pathExtension) else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            for occurrence in UncheckedIdiom.occurrences(in: try String(contentsOf: url, encoding: .utf8)) {
                found[path, default: []].insert(occurrence.idiom)
            }
        }
        return found
    }

    static func allowed() -> [String: Set<UncheckedIdiom>] {
        var allowed: [String: Set<UncheckedIdiom>] = [:]
        for home in UncheckedIdiomHomes.homes {
            for file in home.files { allowed[file, default: []].formUnion(home.idioms) }
        }
        return allowed
    }

    @Test("every unchecked idiom in Sources/ is in a file listed for it")
    func everyIdiomHasAHome() throws {
        let found = try Self.scanSources()
        // A scanner that found nothing would find nothing out of place either.
        #expect(found.count >= 30, "found idioms in only \(found.keys.sorted())")
        let allowed = Self.allowed()
        let strays = found.flatMap { path, idioms in
            idioms.subtracting(allowed[path] ?? []).map { "Sources/\(path): \($0.rawValue)" }
        }.sorted()
        #expect(strays.isEmpty, "not listed in UncheckedIdiomHomes.swift:\n\(strays.joined(separator: "\n"))")
    }

    @Test("every listed home still uses the idioms it is listed for")
    func everyHomeIsUsed() throws {
        let found = try Self.scanSources()
        let stale = Self.allowed().flatMap { path, idioms in
            idioms.subtracting(found[path] ?? []).map { "Sources/\(path): \($0.rawValue)" }
        }.sorted()
        #expect(stale.isEmpty, "listed but no longer used (remove the entry):\n\(stale.joined(separator: "\n"))")
    }

    @Test("every home names its invariant and checks that exist")
    func everyHomeNamesItsChecks() throws {
        let tests = PackageGraphTests.root.appendingPathComponent("Tests")
        var declared = Set<String>()
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"\b(?:struct|class|enum)\s+([A-Za-z0-9_]+)"#)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { declared.insert(String(text[range])) }
            }
        }
        var problems: [String] = []
        for home in UncheckedIdiomHomes.homes {
            if home.invariant.count < 40 { problems.append("\(home.files): invariant too short to be checked") }
            if home.checkedBy.isEmpty { problems.append("\(home.files): names no check") }
            for check in home.checkedBy {
                let exists = check.contains("/")
                    ? FileManager.default.fileExists(atPath: PackageGraphTests.root.appendingPathComponent(check).path)
                    : declared.contains(check)
                if !exists { problems.append("\(home.files): \(check) is neither a test type in Tests/ nor a file") }
            }
        }
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("author-facing files have no unchecked idiom")
    func authorFacingFilesStayPlain() throws {
        let found = try Self.scanSources()
        let problems = try found.filter { path, _ in try Self.isAuthorFacing(path) }
            .flatMap { path, idioms in idioms.map { "Sources/\(path): \($0.rawValue)" } }
            .sorted()
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("every @exclusivity(unchecked) is compiled in release builds only, so debug builds check each access")
    func exclusivityIsCheckedInDebugBuilds() throws {
        var problems: [String] = []
        for (path, idioms) in try Self.scanSources() where idioms.contains(.exclusivityUnchecked) {
            let source = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            for line in UncheckedIdiom.exclusivityOutsideReleaseOnlyBlocks(in: source) {
                problems.append("Sources/\(path):\(line)")
            }
        }
        #expect(problems.isEmpty, """
            not wrapped as `#if !DEBUG` / `@exclusivity(unchecked)` / `#endif` before its declaration:
            \(problems.joined(separator: "\n"))
            """)
    }

    // The scanner itself, on small made-up sources.

    @Test("the scanner finds each idiom in code and none in comments")
    func scannerFindsIdiomsInCodeOnly() {
        let source = """
            @exclusivity(unchecked) var a = 0
            let b = unsafeDowncast(x, to: Y.self) // and unsafeBitCast in a comment
            var c: Unmanaged<Y>
            let d = raw.load(fromByteOffset: 0, as: UInt.self)
            nonisolated(unsafe) static let e = 1
            struct F: @unchecked Sendable {}
            static _Thread_local void *g;
            /// Unmanaged and nonisolated(unsafe), only in a doc comment
            let h = 1 /* @unchecked Sendable */ + 2
            /* a block comment
               with @exclusivity(unchecked) inside */ let i = 3
            """
        let found = UncheckedIdiom.occurrences(in: source)
        #expect(found.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
        #expect(found.map(\.idiom) == [
            .exclusivityUnchecked, .unsafeCast, .unmanaged, .memoryReinterpretation,
            .nonisolatedUnsafe, .uncheckedSendable, .cThreadLocal,
        ])
    }

    @Test("the release-only check accepts the attribute alone between #if !DEBUG and #endif, and nothing else")
    func releaseOnlyCheckFindsUnwrappedAttributes() {
        let source = """
            final class C {
                #if !DEBUG
                @exclusivity(unchecked)
                #endif
                var wrapped = 0
                @exclusivity(unchecked) var bare = 0
                #if DEBUG
                @exclusivity(unchecked)
                #endif
                var inverted = 0
                #if !DEBUG
                @exclusivity(unchecked) var sameLine = 0
                #endif
            }
            """
        #expect(UncheckedIdiom.exclusivityOutsideReleaseOnlyBlocks(in: source) == [6, 8, 12])
    }
}
