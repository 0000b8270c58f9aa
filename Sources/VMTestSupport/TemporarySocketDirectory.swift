import Posix

/// A fresh private directory (mode 0700) with a short path under `/tmp` (`sun_path` holds only
/// 107 bytes, and deep build directories do not fit), for one test's sockets and files.
package struct TemporarySocketDirectory: Sendable {
    /// The directory, e.g. `/tmp/vmdt-a1B2c3`.
    package let path: String

    package init() throws {
        path = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdt-XXXXXX")
    }

    /// `path/name`.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The conventional socket path inside it.
    package var socketPath: String { file("vmd.sock") }

    /// Removes `names` (files, sockets, links or empty directories) and then the directory;
    /// best effort, for `defer`.
    package func remove(_ names: [String] = []) {
        for name in names + ["vmd.sock", "vmd.log"] {
            let full = file(name)
            if (try? FileSystem.info(full))??.kind == .directory {
                try? FileSystem.removeDirectory(full)
            } else {
                _ = try? FileSystem.remove(full)
            }
        }
        try? FileSystem.removeDirectory(path)
    }
}
