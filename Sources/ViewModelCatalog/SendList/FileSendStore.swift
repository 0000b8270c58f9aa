import Dispatch
import JSONCore
import Posix
import Synchronization

/// The built-in ``SendStore``: an append-only file of uploads under the daemon's state
/// directory (`sendlist-uploads.ndjson`, format in ``UploadLog``), written with Posix's
/// `DurableFile`.
///
/// - **Durable before acknowledged.** ``upload(message:recipients:)`` returns only after the
///   record was appended in one `O_APPEND` write and `fdatasync`ed, so an upload SendList
///   has reported survives `kill -9` of the daemon (and a power cut).
/// - **Nothing half written.** If the append fails, `DurableFile` truncates the file back to
///   its previous length, the id is not consumed, and the error says nothing was stored.
///   A record torn by a crash in the middle of a write is cut off when the store opens.
/// - **Read back exactly once.** Ids count from 1 and continue across restarts; reading
///   skips any repeated id and any line that is not an upload.
/// - **Once per key.** An upload with an idempotency key is stored at most once: the keys
///   of the file are indexed when it opens, and an upload whose key is there returns the
///   stored upload (see ``SendRequest``). Since a record is durable before it is
///   acknowledged, a retry after `kill -9` finds the key whenever the first try was stored.
///
/// Opening is lazy (the first call creates the directory, mode 0700, and the file, mode
/// 0600), so a bad state directory fails SendList's `send` with a clear message instead of
/// stopping the daemon. File work runs on a private serial dispatch queue, never on Swift's
/// cooperative pool, and one call at a time.
public final class FileSendStore: SendStore {
    /// The store's file name inside the state directory.
    package static let fileName = "sendlist-uploads.ndjson"

    /// The store file.
    package let path: String
    private let directory: String
    private let openFile: @Sendable (String) throws -> any AppendOnlyFile
    private let queue = DispatchQueue(label: "vmd.catalog.send-store")
    /// Touched only by jobs on `queue`; the mutex makes that provable to the compiler.
    private let state = Mutex(OpenState())

    private struct OpenState {
        var file: (any AppendOnlyFile)?
        var nextID = 1
        /// The stored uploads that have a key, by key: their id and a digest of their content,
        /// not the upload itself, so the index costs a few dozen bytes per key however long
        /// the messages are (a retry carries the content again anyway).
        var byKey: [String: StoredKey] = [:]
    }

    /// A store in `stateDirectory` (created on first use).
    public convenience init(stateDirectory: String) {
        self.init(path: Self.path(inStateDirectory: stateDirectory))
    }

    /// A store in the file at `path`.
    package convenience init(path: String) {
        self.init(path: path, openFile: Self.openDurableFile)
    }

    /// The real file: a `DurableFile`, mode 0600.
    static let openDurableFile: @Sendable (String) throws -> any AppendOnlyFile = { path in
        try DurableFile(path: path, permissions: 0o600)
    }

    init(path: String, openFile: @escaping @Sendable (String) throws -> any AppendOnlyFile) {
        self.path = path
        self.directory = FileSystem.parentDirectory(of: path) ?? "."
        self.openFile = openFile
    }

    /// Where the store of `stateDirectory` keeps its file.
    package static func path(inStateDirectory stateDirectory: String) -> String {
        stateDirectory.hasSuffix("/") ? stateDirectory + fileName : stateDirectory + "/" + fileName
    }

    public func upload(message: String, recipients: [String]) async throws -> Upload {
        try await upload(message: message, recipients: recipients, key: nil)
    }

    public func upload(message: String, recipients: [String], key: String?) async throws -> Upload {
        try await onQueue {
            try self.state.withLock { state throws in
                let file = try self.open(&state)
                if let key, let stored = state.byKey[key] {
                    guard stored.digest == StoredKey.digest(message: message, recipients: recipients) else {
                        throw SendStoreError(
                            "The key \(JSONValue.string(key).encodedString()) already names upload \(stored.id), with another "
                                + "message or recipients; nothing was stored. Use a new key for a new message.",
                            reason: "keyReused", path: self.path)
                    }
                    return Upload(id: stored.id, message: message, recipients: recipients, key: key)
                }
                let upload = Upload(id: state.nextID, message: message, recipients: recipients, key: key)
                do {
                    try file.append(UploadLog.record(upload))
                } catch {
                    throw SendStoreError(
                        "Could not save the upload to \(self.path): \(error). Nothing was stored; try again.",
                        reason: "storeWriteFailed", path: self.path)
                }
                state.nextID += 1
                if let key { state.byKey[key] = StoredKey(upload) }
                return upload
            }
        }
    }

    public func uploads() async throws -> [Upload] {
        try await onQueue {
            try self.state.withLock { state throws in
                let file = try self.open(&state)
                do {
                    return UploadLog.read(try file.readAll()).uploads
                } catch {
                    throw SendStoreError(
                        "Could not read the uploads in \(self.path): \(error).", reason: "storeReadFailed", path: self.path)
                }
            }
        }
    }

    /// The open file, opening (and repairing) it on first use.
    private func open(_ state: inout OpenState) throws -> any AppendOnlyFile {
        if let file = state.file { return file }
        do {
            try FileSystem.makeDirectories(directory, permissions: 0o700)
            let file = try openFile(path)
            let bytes = try file.readAll()
            let contents = UploadLog.read(bytes)
            if contents.intactLength < bytes.count {
                try file.replace(with: Array(bytes[..<contents.intactLength]))
            }
            // The file may have just been created: make its directory entry durable too.
            try FileSystem.syncDirectory(directory)
            state.file = file
            state.nextID = contents.nextID
            for upload in contents.uploads {
                if let key = upload.key, state.byKey[key] == nil { state.byKey[key] = StoredKey(upload) }
            }
            return file
        } catch {
            throw SendStoreError(
                "Could not open the send store \(path): \(error). Nothing was stored.", reason: "storeUnavailable", path: path)
        }
    }

    /// Runs `work` on the store's queue and returns its result to the awaiting task.
    private func onQueue<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }
}
