#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// What `lstat`/`stat` says about a path, reduced to what vmd checks.
public struct FileInfo: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, socket, other }

    public let kind: Kind
    /// `st_mode & 0o7777`.
    public let permissions: UInt32
    public let owner: UInt32
    public let size: Int64

    init(_ info: cposix_file_info) {
        switch info.kind {
        case 1: kind = .regular
        case 2: kind = .directory
        case 3: kind = .symbolicLink
        case 4: kind = .socket
        default: kind = .other
        }
        permissions = info.permissions
        owner = info.owner
        size = info.size
    }
}

/// Small path operations, each one syscall through the chokepoint.
public enum FileSystem {
    /// `lstat` (or `stat` when `followingSymlinks`); `nil` when nothing exists at the path.
    public static func info(_ path: String, followingSymlinks: Bool = false) throws -> FileInfo? {
        var raw = cposix_file_info()
        do {
            try retryingOnInterrupt("\(followingSymlinks ? "stat" : "lstat")(\(path))") {
                cposix_stat(path, followingSymlinks ? 1 : 0, &raw)
            }
        } catch let error as SystemError where error.errno == ENOENT {
            return nil
        }
        return FileInfo(raw)
    }

    /// `fstat` on an open descriptor.
    public static func info(of descriptor: FileDescriptor) throws -> FileInfo {
        var raw = cposix_file_info()
        let fd = descriptor.rawValue
        try retryingOnInterrupt("fstat(\(fd))") { cposix_fstat(fd, &raw) }
        return FileInfo(raw)
    }

    /// `mkdir`; returns false (no error) when the path already exists.
    @discardableResult
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o700) throws -> Bool {
        do {
            try retryingOnInterrupt("mkdir(\(path))") { mkdir(path, mode_t(permissions)) }
            return true
        } catch let error as SystemError where error.errno == EEXIST {
            return false
        }
    }

    /// Creates `path` and any missing parents, each with `permissions`.
    public static func makeDirectories(_ path: String, permissions: UInt32 = 0o700) throws {
        if try info(path, followingSymlinks: true) != nil { return }
        if let parent = parentDirectory(of: path), parent != path {
            try makeDirectories(parent, permissions: permissions)
        }
        try makeDirectory(path, permissions: permissions)
    }

    /// `unlink`; returns false (no error) when nothing was there.
    @discardableResult
    public static func remove(_ path: String) throws -> Bool {
        do {
            try retryingOnInterrupt("unlink(\(path))") { unlink(path) }
            return true
        } catch let error as SystemError where error.errno == ENOENT {
            return false
        }
    }

    /// `rmdir`.
    public static func removeDirectory(_ path: String) throws {
        try retryingOnInterrupt("rmdir(\(path))") { rmdir(path) }
    }

    /// `rename`, atomic within one filesystem.
    public static func rename(_ from: String, to: String) throws {
        try retryingOnInterrupt("rename(\(from), \(to))") { libcRename(from, to) }
    }

    /// `chmod`.
    public static func setPermissions(_ path: String, _ permissions: UInt32) throws {
        try retryingOnInterrupt("chmod(\(path))") { chmod(path, mode_t(permissions)) }
    }

    /// `symlink(target, path)`.
    public static func makeSymbolicLink(at path: String, pointingTo target: String) throws {
        try retryingOnInterrupt("symlink(\(path))") { symlink(target, path) }
    }

    /// Makes a fresh private directory from a template ending in `XXXXXX` (`mkdtemp`, mode 0700).
    public static func makeTemporaryDirectory(template: String = "/tmp/vmdt-XXXXXX") throws -> String {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }
        }
        guard made != nil else { throw SystemError(call: "mkdtemp(\(template))", errno: cposix_errno()) }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads a whole file.
    public static func readFile(_ path: String) throws -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, .readOnly)
        return try descriptor.readToEnd()
    }

    /// Reads a whole regular file of at most `maxBytes` bytes; also answers what `fstat` says
    /// of the file read (its owner and mode, for callers that check who may write it).
    ///
    /// Anything but a regular file is refused before it is opened (a FIFO would block the
    /// open, `/dev/zero` never ends), and again after (`fstat` on what was opened); a file
    /// that holds more than `maxBytes` is refused without reading more than one byte past it.
    /// - Throws: ``RegularFileError``, or ``SystemError`` when a call fails.
    public static func readRegularFile(_ path: String, maxBytes: Int) throws -> (bytes: [UInt8], info: FileInfo) {
        guard let before = try info(path, followingSymlinks: true) else {
            throw SystemError(call: "stat(\(path))", errno: ENOENT)
        }
        guard before.kind == .regular else { throw RegularFileError(path: path, reason: .notRegular(before.kind)) }
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { try? descriptor.close() }
        let opened = try info(of: descriptor)
        guard opened.kind == .regular else { throw RegularFileError(path: path, reason: .notRegular(opened.kind)) }
        var bytes: [UInt8] = []
        while true {
            guard let chunk = try descriptor.read(upTo: min(65_536, maxBytes + 1 - bytes.count)) else { continue }
            if chunk.isEmpty { break }
            bytes.append(contentsOf: chunk)
            if bytes.count > maxBytes { throw RegularFileError(path: path, reason: .tooLarge(maxBytes: maxBytes)) }
        }
        return (bytes, opened)
    }

    /// `fsync` on a directory, so a `rename` or `unlink` inside it survives a crash.
    public static func syncDirectory(_ path: String) throws {
        let directory = try FileDescriptor.open(path, [.readOnly, .directory])
        let fd = directory.rawValue
        try retryingOnInterrupt("fsync(\(path))") { fsync(fd) }
    }

    /// The directory part of `path` (`"."` for a bare name, `"/"` for top-level entries).
    public static func parentDirectory(of path: String) -> String? {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == 0 { return "/" }
        var parent = Array(bytes[..<slash])
        while parent.count > 1, parent.last == UInt8(ascii: "/") { parent.removeLast() }
        return String(decoding: parent, as: UTF8.self)
    }
}
