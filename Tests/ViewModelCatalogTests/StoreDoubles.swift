import Foundation
import Synchronization
import ViewModelKit
@testable import ViewModelCatalog

/// A scratch directory for one test, removed when the test ends (`defer { dir.remove() }`).
struct ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/vmd-catalog-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The bytes of `name`, read with Foundation (independently of the store's own reader).
    func contents(of name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The store file, able to refuse appends the way a full disk does (before writing anything).
final class FlakyFile: AppendOnlyFile {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "write: No space left on device (ENOSPC)" }
    }

    private let base: any AppendOnlyFile
    private let refusing: Mutex<Bool>

    init(base: any AppendOnlyFile, refusing: Bool = false) {
        self.base = base
        self.refusing = Mutex(refusing)
    }

    func refuseAppends(_ refuse: Bool) { refusing.withLock { $0 = refuse } }

    func append(_ record: [UInt8]) throws {
        if refusing.withLock({ $0 }) { throw DiskFull() }
        try base.append(record)
    }

    func readAll() throws -> [UInt8] { try base.readAll() }

    func replace(with contents: [UInt8]) throws { try base.replace(with: contents) }
}

/// Opens the store's real file wrapped in a ``FlakyFile``, and keeps it for the test.
final class FlakyOpener: Sendable {
    private let opened = Mutex<FlakyFile?>(nil)

    /// The file the store opened, once it has.
    var file: FlakyFile? { opened.withLock { $0 } }

    func open(_ path: String) throws -> any AppendOnlyFile {
        let file = FlakyFile(base: try FileSendStore.openDurableFile(path))
        opened.withLock { $0 = file }
        return file
    }

    func store(path: String) -> FileSendStore {
        FileSendStore(path: path, openFile: { path in try self.open(path) })
    }
}

/// A store in memory for view-model tests: records uploads; can fail the next ones.
actor MemorySendStore: SendStore {
    private(set) var stored: [Upload] = []
    private var failing = false

    func fail(_ fail: Bool) { failing = fail }

    func upload(message: String, recipients: [String]) async throws -> Upload {
        if failing { throw SendStoreError("The store is down; nothing was stored.", reason: "storeWriteFailed", path: "memory") }
        let upload = Upload(id: stored.count + 1, message: message, recipients: recipients)
        stored.append(upload)
        return upload
    }

    func uploads() async throws -> [Upload] { stored }
}
