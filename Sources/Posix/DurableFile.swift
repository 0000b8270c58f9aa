#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix
import Synchronization

/// An append-only record file that survives crashes well enough for a catalog's store.
///
/// - ``append(_:)``: one `O_APPEND` write of the whole record, then `fdatasync`, before it
///   returns. If anything fails, the file is truncated back to its previous length, so a
///   reader never sees half a record from this process.
/// - ``replace(with:)``: write a temporary file beside it, `fsync`, `rename` over the original,
///   `fsync` the directory: readers see the old contents or the new, never a mix.
///
/// Threading: Sendable; calls are serialized by a mutex (a record is never interleaved).
public final class DurableFile: Sendable {
    public let path: String
    private let permissions: UInt32
    private let descriptor: Mutex<FileDescriptor>

    /// Opens (creating with `permissions` if missing) the file at `path` for appending.
    public init(path: String, permissions: UInt32 = 0o600) throws {
        self.path = path
        self.permissions = permissions
        descriptor = Mutex(try Self.openForAppend(path, permissions))
    }

    /// The file's current length in bytes.
    public var size: Int64 {
        get throws { try descriptor.withLock { try FileSystem.info(of: $0).size } }
    }

    /// Appends `record` durably, or throws and leaves the file as it was.
    public func append(_ record: [UInt8]) throws {
        try append(record) { fd, bytes in
            try retryingOnInterrupt("write(\(path))") { libcWrite(fd, bytes.baseAddress, bytes.count) }
        }
    }

    /// ``append(_:)`` with the write step injectable, so tests can fail it half-way.
    func append(_ record: [UInt8], writingWith write: (Int32, UnsafeRawBufferPointer) throws -> Int) throws {
        try descriptor.withLock { file in
            let fd = file.rawValue
            let previous = try FileSystem.info(of: file).size
            do {
                var offset = 0
                // O_APPEND makes a single write atomic with respect to the file's end; a short
                // write (disk nearly full) continues where it stopped, still at the end.
                while offset < record.count {
                    offset += try record.withUnsafeBytes { bytes in
                        try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    }
                }
                try Self.syncData(fd, path)
            } catch {
                // Leave no partial record behind; if even this fails, the original error says why.
                _ = ftruncate(fd, off_t(previous))
                _ = try? Self.syncData(fd, path)
                throw error
            }
        }
    }

    /// Reads the whole file.
    public func readAll() throws -> [UInt8] {
        try descriptor.withLock { _ in try FileDescriptor.open(path, [.readOnly, .noFollow]).readToEnd() }
    }

    /// Atomically replaces the contents with `contents` (temp file, fsync, rename, fsync dir),
    /// then reopens for appending.
    public func replace(with contents: [UInt8]) throws {
        try descriptor.withLock { file in
            let temporary = path + ".tmp"
            let staging = try FileDescriptor.open(temporary, [.writeOnly, .create, .truncate, .noFollow], mode: permissions)
            do {
                try staging.writeAll(contents)
                let fd = staging.rawValue
                try retryingOnInterrupt("fsync(\(temporary))") { fsync(fd) }
                try staging.close()
                try FileSystem.rename(temporary, to: path)
            } catch {
                _ = try? FileSystem.remove(temporary)
                throw error
            }
            if let directory = FileSystem.parentDirectory(of: path) {
                try FileSystem.syncDirectory(directory)
            }
            // The old descriptor points at the replaced inode; appends must go to the new one.
            let reopened = try Self.openForAppend(path, permissions)
            try file.close()
            file = reopened
        }
    }

    /// Closes the file; later calls fail with `EBADF`.
    public func close() throws {
        try descriptor.withLock { try $0.close() }
    }

    /// `O_NOFOLLOW`: a symbolic link planted at the store's path is refused (`ELOOP`), never
    /// followed to write somewhere else.
    private static func openForAppend(_ path: String, _ permissions: UInt32) throws -> FileDescriptor {
        try FileDescriptor.open(path, [.readWrite, .create, .append, .noFollow], mode: permissions)
    }

    private static func syncData(_ fd: Int32, _ path: String) throws {
        #if canImport(Glibc)
        try retryingOnInterrupt("fdatasync(\(path))") { fdatasync(fd) }
        #else
        try retryingOnInterrupt("fsync(\(path))") { fsync(fd) }
        #endif
    }
}
