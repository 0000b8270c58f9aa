#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replays a corpus: every regular file below the given directories (recursively) through all
/// the targets. A defect traps, so a clean run exits 0; an unreadable argument exits 2.
enum CorpusReplay {
    static func run(directories: [String]) -> Int32 {
        guard !directories.isEmpty else {
            printError("usage: vmd-fuzz CORPUS-DIR...   (replays every file through every target)\n")
            return 2
        }
        var files: [String] = []
        for directory in directories {
            guard collect(directory, into: &files) else {
                printError("vmd-fuzz: cannot read \(directory)\n")
                return 2
            }
        }
        files.sort()
        for file in files {
            guard let bytes = read(file) else {
                printError("vmd-fuzz: cannot read \(file)\n")
                return 2
            }
            bytes.withUnsafeBytes { input in
                for name in VMDFuzz.targetNames { _ = VMDFuzz.run(target: name, input) }
            }
        }
        print("vmd-fuzz: replayed \(files.count) files through \(VMDFuzz.targetNames.joined(separator: ", "))")
        return 0
    }

    /// Appends the regular files below `path` (or `path` itself); `false` if it cannot be read.
    private static func collect(_ path: String, into files: inout [String]) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if (info.st_mode & S_IFMT) == S_IFREG {
            files.append(path)
            return true
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            guard collect(path + "/" + name, into: &files) else { return false }
        }
        return true
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return ferror(file) == 0 ? bytes : nil
    }
}

/// Writes `text` to standard error (file descriptor 2).
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in _ = write(2, raw.baseAddress, raw.count) }
}
