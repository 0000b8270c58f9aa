import Posix

/// Finds the executables built with the tests (`vmd`, `vmctl`, `vmd-bench`): they sit beside
/// the test bundle in the build products directory (`.build/debug`).
package enum BuiltProducts {
    /// The absolute path of the built executable `name`.
    /// - Throws: ``BuiltProductsError`` naming every place looked at.
    package static func executable(_ name: String) throws -> String {
        var candidates: [String] = []
        let environment = CurrentProcess.environment
        if let directory = environment["VMD_BUILD_DIR"], !directory.isEmpty {
            candidates.append(directory + "/" + name)
        }
        if let testBinary = CommandLine.arguments.first, let directory = FileSystem.parentDirectory(of: absolute(testBinary)) {
            candidates.append(directory + "/" + name)
            // `swift test` may run the bundle through a helper one level down.
            if let parent = FileSystem.parentDirectory(of: directory) { candidates.append(parent + "/" + name) }
        }
        if let cwd = CurrentProcess.workingDirectory {
            candidates.append(cwd + "/.build/debug/" + name)
        }
        for candidate in candidates where isExecutableFile(candidate) {
            return candidate
        }
        throw BuiltProductsError(name: name, searched: candidates)
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return (CurrentProcess.workingDirectory ?? ".") + "/" + path
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        guard let info = try? FileSystem.info(path, followingSymlinks: true) else { return false }
        return info.kind == .regular && info.permissions & 0o111 != 0
    }
}

/// A built executable was not found.
package struct BuiltProductsError: Error, CustomStringConvertible {
    package let name: String
    package let searched: [String]
    package var description: String {
        "built executable \(name) not found (run swift build first); looked at: " + searched.joined(separator: ", ")
    }
}
