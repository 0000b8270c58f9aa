import Dispatch
import JSONCore
import Posix
import VMServer

/// The daemon's store of durable instances: one append-only file in the state directory
/// (`$XDG_STATE_HOME/<name>/instances.vmdlog`), written with Posix's `DurableFile`.
///
/// ## Format
/// One record a line: the CRC-32 of the JSON in 8 lower-case hex digits, a space, the JSON,
/// `\n`. The first record is the header `{"format": "vmd-instances", "version": 1}`; then
/// `instance` (a whole instance: created, restored, or written by a compaction), `save` (one
/// saved value) and `destroy` records. Every record of an instance carries `n`, one more than
/// its previous record's, so a lost record shows as a gap.
///
/// ## Group commit
/// Records are collected during a loop turn and handed to one `write` and one `fdatasync` on
/// a helper thread (``startSync(on:completion:)``); the daemon writes a connection's replies
/// and notifications only up to what was queued before a sync that has completed, so what a
/// client was told about is on disk, while the loop goes on serving (and collecting the next
/// batch) during the sync. Saved values are collected from the server when a batch is
/// serialized (``changesWaiting()``, ``changeCollector``): a value changed a thousand times
/// in one batch is one record, of its last value.
///
/// ## Damage
/// Opening never fails on the file's contents. A torn last line (a write cut by a crash, never
/// acknowledged) is dropped. A damaged line elsewhere (bad checksum, not JSON) is set aside,
/// and so is every instance whose history it may have ended: the instances with a gap in
/// their `n`, and those with no intact record after the damage. A file of a later format
/// version is renamed aside whole and the store starts empty. What is set aside is appended
/// to `instances.set-aside` (one JSON line each: why, and the bytes or the record) and logged;
/// nothing restored is ever a guess.
///
/// ## Bounds
/// The file is rewritten as one `instance` record per live durable instance (a compaction,
/// atomic: `DurableFile.replace`) when opened and whenever it grows past twice its size after
/// the last compaction and past ``compactionFloorBytes``.
///
/// Threading: the loop thread only; only the file's `write` and `fdatasync` (or a
/// compaction's `replace`) run on a private serial queue, with the bytes handed over.
package final class DurableInstanceStore: InstanceStore {
    /// The store's file name in the state directory.
    package static let fileName = "instances.vmdlog"
    /// Where set-aside records and bytes go, in the same directory.
    package static let setAsideFileName = "instances.set-aside"
    /// The format this build writes and reads; a file with a higher version is set aside.
    package static let formatVersion = 1
    /// The file is never compacted below this size.
    package static let compactionFloorBytes: Int64 = 1 << 20

    /// The store's file.
    package let path: String
    /// The set-aside file.
    package let setAsidePath: String
    private let directory: String
    private let log: DaemonLog
    /// `nil` until there is something to keep: a daemon that never creates a durable instance
    /// writes nothing.
    private var file: DurableFile?
    /// The live durable instances as stored, by id.
    private var kept: [String: Kept] = [:]
    private var nextOrdinal = 0
    /// What ``restorable()`` returns: what the file held when opened.
    private var opened: [StoredInstance] = []
    /// Records of this loop turn, not yet written.
    private var pendingRecords: [PendingRecord] = []
    /// Per instance, where in ``pendingRecords`` the pending save of each key is (since the
    /// instance's last pending `instance` or `destroy` record): a later save replaces it.
    private var pendingSaves: [String: [String: Int]] = [:]
    package var changeCollector: (() -> Void)?
    /// ``changesWaiting()`` was called since the last collection.
    private var hasChangesToCollect = false
    /// Serialized records not yet handed to a sync (a failed one leaves its batch here).
    private var unwritten: [UInt8] = []
    /// A sync runs on ``syncQueue``.
    package private(set) var isSyncing = false
    /// Whether records wait for a sync or one runs (``hasPending`` or ``isSyncing``), kept as
    /// one stored flag: the daemon reads it before every write and then holds back each
    /// connection's bytes queued after the last completed sync began (Daemon+GroupCommit.swift).
    package var isHolding: Bool { holding }
    /// ``isHolding``'s storage, private so that every access is visible to the optimizer and
    /// checked statically, not at run time on each flush.
    private var holding = false
    /// The last sync failed: what it left is retried with the next change, not at once.
    private var lastSyncFailed = false
    private var syncCompletion: (() -> Void)?
    /// Where syncs run: one at a time, off the loop thread.
    private let syncQueue = DispatchQueue(label: "vmd.durable-instances")
    private var fileBytes: Int64 = 0
    private var compactedBytes: Int64 = 0
    /// Called when a turn's first record is pending: the daemon schedules ``commit()`` at the
    /// end of the turn, for changes that cause no reply.
    package var onPending: (() -> Void)?

    private enum PendingRecord {
        /// An `instance` or `destroy` record.
        case whole(JSONValue)
        case save(id: String, n: Int64, key: String, entry: JSONValue)
    }

    private struct Kept {
        var instance: StoredInstance
        var n: Int64
        /// Creation order: compactions keep it, so parents stay before their children.
        var ordinal: Int
        /// Index of its last intact record in the file being read (opening only).
        var lastRecord: Int
    }

    /// Opens the store in `directory`: when its file exists, reads what it holds, sets aside
    /// what is damaged and compacts it; otherwise touches nothing until the first commit
    /// (which creates the directory, mode 0700, and the file, mode 0600). Throws only when
    /// the file cannot be used at all (then the daemon runs without durable instances and
    /// says so).
    package init(directory: String, log: DaemonLog) throws {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        self.directory = directory
        path = base + Self.fileName
        setAsidePath = base + Self.setAsideFileName
        self.log = log
        guard try FileSystem.info(path) != nil else { return }
        try PrivateDirectory.ensure(directory)
        let file = try DurableFile(path: path, permissions: 0o600)
        self.file = file
        let bytes = try file.readAll()
        if !read(bytes) {
            // A file from a later format: kept whole beside it, never overwritten.
            var aside = path + ".future"
            var suffix = 1
            while try FileSystem.info(aside) != nil {
                suffix += 1
                aside = path + ".future." + String(suffix)
            }
            try file.close()
            try FileSystem.rename(path, to: aside)
            self.file = try DurableFile(path: path, permissions: 0o600)
            log.warning("durable instances store is from a later version of the daemon: set aside, starting empty", [
                "file": .string(aside),
            ])
            kept = [:]
        }
        opened = kept.values.sorted { $0.ordinal < $1.ordinal }.map(\.instance)
        try compact()
    }

    // MARK: InstanceStore

    package func restorable() -> [StoredInstance] { opened }

    package func created(_ instance: StoredInstance) {
        let n = (kept[instance.id]?.n ?? 0) + 1
        let ordinal = kept[instance.id]?.ordinal ?? nextOrdinal
        if kept[instance.id] == nil { nextOrdinal += 1 }
        kept[instance.id] = Kept(instance: instance, n: n, ordinal: ordinal, lastRecord: 0)
        pendingSaves[instance.id] = nil
        append(.whole(["op": "instance", "n": .integer(n), "instance": instance.jsonValue]))
    }

    package func saved(_ instance: String, key: String, entry: JSONValue) {
        // In place (no copy of the instance's saved values per save).
        guard (kept[instance]?.instance.saved[key] = entry) != nil else { return }
        if let index = pendingSaves[instance]?[key], case .save(let id, let n, _, _) = pendingRecords[index] {
            pendingRecords[index] = .save(id: id, n: n, key: key, entry: entry)
            return
        }
        guard let n = kept[instance].map({ $0.n + 1 }) else { return }
        kept[instance]?.n = n
        pendingSaves[instance, default: [:]][key] = pendingRecords.count
        append(.save(id: instance, n: n, key: key, entry: entry))
    }

    package func changesWaiting() {
        let wasEmpty = !hasPending
        hasChangesToCollect = true
        lastSyncFailed = false
        holding = true
        if wasEmpty { onPending?() }
    }

    package func destroyed(_ instance: String) {
        guard let record = kept.removeValue(forKey: instance) else { return }
        pendingSaves[instance] = nil
        append(.whole(["op": "destroy", "id": .string(instance), "n": .integer(record.n + 1)]))
    }

    package func setAside(_ instance: String, what: JSONValue, reason: String) {
        keepAside(["instance": .string(instance), "reason": .string(reason), "record": what])
        log.warning("durable instance \(instance): \(reason)", ["setAside": .string(setAsidePath)])
    }

    // MARK: Writing

    /// Whether records wait for a sync.
    package var hasPending: Bool { hasChangesToCollect || !pendingRecords.isEmpty || (!unwritten.isEmpty && !lastSyncFailed) }

    /// Hands every waiting record to one sync on a helper thread (the file's `write` and
    /// `fdatasync`, or a compaction when the file has grown past its bound); `completion`
    /// runs on the loop thread (through `handle`) once it is done. A failure is logged and
    /// its records are written again with the next change (the daemon does not wait for a
    /// disk that refuses them: it logs, and goes on). Does nothing while a sync runs or when
    /// nothing waits.
    package func startSync(on handle: EventLoopHandle, completion: @escaping () -> Void) {
        guard !isSyncing, hasPending else { return }
        serializePending()
        let file: DurableFile
        do {
            file = try openFile()
        } catch {
            lastSyncFailed = true
            holding = false
            log.error("durable instances store: cannot open its file", ["file": .string(path), "error": .string("\(error)")])
            completion()
            return
        }
        let batch = unwritten
        unwritten = []
        let compaction = needsCompaction(adding: batch.count) ? snapshot() : nil
        isSyncing = true
        syncCompletion = completion
        let store = LoopConfined(self, isOnLoopThread: { handle.isInLoopThread })
        syncQueue.async {
            let failure: String?
            do {
                if let compaction { try file.replace(with: compaction) } else { try file.append(batch) }
                failure = nil
            } catch {
                failure = "\(error)"
            }
            handle.execute { store.value.syncFinished(batch: batch, compaction: compaction, failure: failure) }
        }
    }

    private func syncFinished(batch: [UInt8], compaction: [UInt8]?, failure: String?) {
        isSyncing = false
        if let failure {
            lastSyncFailed = true
            unwritten = batch + unwritten
            log.error("durable instances store: could not write; will try again", [
                "file": .string(path), "error": .string(failure), "bytes": LogValue(batch.count),
            ])
        } else if let compaction {
            fileBytes = Int64(compaction.count)
            compactedBytes = fileBytes
        } else {
            fileBytes += Int64(batch.count)
        }
        holding = hasPending
        let completion = syncCompletion
        syncCompletion = nil
        completion?()
    }

    /// Waits for a running sync, then writes what waits on this thread: at the daemon's end,
    /// and after a restore, before anything is served.
    package func drain() {
        if isSyncing {
            syncQueue.sync {}
            // Its completion is queued on the loop; what it wrote is on disk already.
            isSyncing = false
            syncCompletion = nil
        }
        lastSyncFailed = false
        commit()
        holding = hasPending
    }

    /// Writes every waiting record with one `write` and one `fdatasync` (or compacts), on
    /// this thread. A failure is logged and the records are kept for the next write.
    package func commit() {
        guard !isSyncing, hasPending || !unwritten.isEmpty else { return }
        serializePending()
        do {
            if file == nil || needsCompaction(adding: unwritten.count) {
                try compact()
            } else if let file {
                try file.append(unwritten)
                fileBytes += Int64(unwritten.count)
                unwritten.removeAll(keepingCapacity: true)
            }
        } catch {
            log.error("durable instances store: could not write; will try again", [
                "file": .string(path), "error": .string("\(error)"), "bytes": LogValue(unwritten.count),
            ])
        }
        holding = isSyncing
    }

    private func needsCompaction(adding bytes: Int) -> Bool {
        fileBytes + Int64(bytes) > max(Self.compactionFloorBytes, 2 * compactedBytes)
    }

    /// Moves the waiting records into ``unwritten``, serialized.
    private func serializePending() {
        if hasChangesToCollect {
            hasChangesToCollect = false
            changeCollector?()
        }
        for record in pendingRecords {
            switch record {
            case .whole(let json):
                Self.appendRecord(json, to: &unwritten)
            case .save(let id, let n, let key, let entry):
                Self.appendRecord(["op": "save", "id": .string(id), "n": .integer(n), "key": .string(key), "entry": entry], to: &unwritten)
            }
        }
        pendingRecords.removeAll(keepingCapacity: true)
        pendingSaves.removeAll(keepingCapacity: true)
    }

    /// Rewrites the file as the header and one `instance` record per live durable instance.
    private func compact() throws {
        let file = try openFile()
        let contents = snapshot()
        try file.replace(with: contents)
        fileBytes = Int64(contents.count)
        compactedBytes = fileBytes
        pendingRecords.removeAll(keepingCapacity: true)
        pendingSaves.removeAll(keepingCapacity: true)
        unwritten.removeAll(keepingCapacity: true)
    }

    /// The file as a compaction writes it: the header and one `instance` record per live
    /// durable instance, in creation order.
    private func snapshot() -> [UInt8] {
        var contents: [UInt8] = []
        Self.appendRecord(["format": "vmd-instances", "version": .integer(Int64(Self.formatVersion))], to: &contents)
        for record in kept.values.sorted(by: { $0.ordinal < $1.ordinal }) {
            Self.appendRecord(["op": "instance", "n": .integer(record.n), "instance": record.instance.jsonValue], to: &contents)
        }
        return contents
    }

    /// The open file, created (with its directory) on first use.
    private func openFile() throws -> DurableFile {
        if let file { return file }
        try PrivateDirectory.ensure(directory)
        let opened = try DurableFile(path: path, permissions: 0o600)
        file = opened
        return opened
    }

    private func append(_ record: PendingRecord) {
        let wasEmpty = !hasPending
        lastSyncFailed = false
        holding = true
        pendingRecords.append(record)
        if wasEmpty { onPending?() }
    }

    /// `<crc32 hex> <json>\n`.
    static func appendRecord(_ record: JSONValue, to buffer: inout [UInt8]) {
        let json = record.encodedBytes()
        let digits = Array(String(CRC32.checksum(json), radix: 16).utf8)
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 8 - digits.count))
        buffer.append(contentsOf: digits)
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: json)
        buffer.append(UInt8(ascii: "\n"))
    }

    private func keepAside(_ entry: JSONObject) {
        var line = JSONValue.object(entry).encodedBytes()
        line.append(UInt8(ascii: "\n"))
        do {
            let aside = try DurableFile(path: setAsidePath, permissions: 0o600)
            defer { try? aside.close() }
            try aside.append(line)
        } catch {
            log.error("durable instances store: could not keep a record aside", ["file": .string(setAsidePath), "error": .string("\(error)")])
        }
    }

    // MARK: Reading

    /// Reads the file's records into ``kept``; `false` when the file is from a later format.
    private func read(_ bytes: [UInt8]) -> Bool {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The piece after the last newline: empty, or a torn write (never acknowledged).
        if let tail = lines.popLast(), !tail.isEmpty {
            keepAside(["reason": "torn last record (a write cut short by a crash)", "bytes": Self.printable(tail)])
            log.notice("durable instances store: dropped a torn last record (unacknowledged)", ["bytes": LogValue(tail.count)])
        }
        var damage: [Int] = []
        var broken: Set<String> = []
        for (index, line) in lines.enumerated() {
            guard let record = Self.parse(line) else {
                damage.append(index)
                keepAside(["reason": .string("damaged record at line \(index + 1)"), "bytes": Self.printable(line)])
                continue
            }
            if index == 0, case .string("vmd-instances")? = record["format"] {
                if case .integer(let version)? = record["version"], version > Int64(Self.formatVersion) { return false }
                continue
            }
            apply(record, at: index, broken: &broken)
        }
        for index in damage {
            // The damaged line may have been the last record of any instance not heard of since.
            for (id, record) in kept where record.lastRecord < index {
                setAsideOnOpen(id, reason: "a damaged record (line \(index + 1)) may have held its last change")
            }
            log.warning("durable instances store: damaged record set aside", ["line": LogValue(index + 1), "file": .string(path)])
        }
        return true
    }

    private func apply(_ record: JSONObject, at index: Int, broken: inout Set<String>) {
        guard case .integer(let n)? = record["n"], case .string(let op)? = record["op"] else { return }
        switch op {
        case "instance":
            guard let json = record["instance"], let instance = try? StoredInstance(json: json) else { return }
            broken.remove(instance.id)
            let ordinal = kept[instance.id]?.ordinal ?? nextOrdinal
            if kept[instance.id] == nil { nextOrdinal += 1 }
            kept[instance.id] = Kept(instance: instance, n: n, ordinal: ordinal, lastRecord: index)
        case "save":
            guard case .string(let id)? = record["id"], !broken.contains(id), var kept = kept[id] else { return }
            guard n == kept.n + 1, case .string(let key)? = record["key"], let entry = record["entry"] else {
                broken.insert(id)
                setAsideOnOpen(id, reason: "record \(kept.n + 1) of its history is missing (line \(index + 1) has \(n))")
                return
            }
            kept.n = n
            kept.lastRecord = index
            kept.instance.saved[key] = entry
            self.kept[id] = kept
        case "destroy":
            guard case .string(let id)? = record["id"] else { return }
            broken.remove(id)
            kept[id] = nil
        default:
            return
        }
    }

    private func setAsideOnOpen(_ id: String, reason: String) {
        guard let record = kept.removeValue(forKey: id) else { return }
        setAside(id, what: record.instance.jsonValue, reason: "not restored: " + reason)
    }

    /// The record of an intact line, or `nil`.
    private static func parse(_ line: ArraySlice<UInt8>) -> JSONObject? {
        guard line.count > 10, line[line.startIndex + 8] == UInt8(ascii: " ") else { return nil }
        let hex = String(decoding: line[line.startIndex..<line.startIndex + 8], as: UTF8.self)
        guard let expected = UInt32(hex, radix: 16) else { return nil }
        let json = line[(line.startIndex + 9)...]
        guard CRC32.checksum(json) == expected, case .object(let object)? = try? JSONParser.parse(json) else { return nil }
        return object
    }

    /// Bytes as a JSON string when they are UTF-8, else as hex digits.
    private static func printable(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
        return .object(["hex": .string(bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined())])
    }
}
