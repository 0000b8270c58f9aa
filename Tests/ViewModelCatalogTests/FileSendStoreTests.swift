import Foundation
import Testing
import ViewModelKit
@testable import ViewModelCatalog

@Suite("FileSendStore: durable appends, nothing half written, each upload read back once")
struct FileSendStoreTests {
    private let name = FileSendStore.fileName

    @Test("an acknowledged upload is on disk, one record per line, ids counting from 1")
    func acknowledgedIsOnDisk() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let store = FileSendStore(stateDirectory: dir.path + "/state")
        let first = try await store.upload(message: "Hello", recipients: ["ada@example.com"])
        #expect(first == Upload(id: 1, message: "Hello", recipients: ["ada@example.com"]))
        let stateDir = try ScratchDirectory.Existing(dir.path + "/state")
        #expect(stateDir.contents(of: name) == #"{"id":1,"message":"Hello","recipients":["ada@example.com"]}"# + "\n")
        let second = try await store.upload(message: "Line\nbreak \"quoted\"", recipients: ["bob", "cy"])
        #expect(second.id == 2)
        #expect(stateDir.contents(of: name) == """
        {"id":1,"message":"Hello","recipients":["ada@example.com"]}
        {"id":2,"message":"Line\\nbreak \\"quoted\\"","recipients":["bob","cy"]}

        """)
        #expect(try await store.uploads() == [first, second])
    }

    @Test("the state directory and the file are created private to the user")
    func privatePermissions() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let stateDir = dir.path + "/nested/state"
        let store = FileSendStore(stateDirectory: stateDir)
        _ = try await store.upload(message: "m", recipients: ["r"])
        let directoryMode = try FileManager.default.attributesOfItem(atPath: stateDir)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test("a failed upload is reported, leaves the file byte for byte as it was, and uses no id")
    func failureLeavesFileUnchanged() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let opener = FlakyOpener()
        let store = opener.store(path: dir.file(name))
        _ = try await store.upload(message: "kept", recipients: ["ada"])
        let before = dir.contents(of: name)
        opener.file?.refuseAppends(true)
        await #expect {
            try await store.upload(message: "lost", recipients: ["bob"])
        } throws: { error in
            let failure = error as? SendStoreError
            return failure?.message == "Could not save the upload to \(dir.file(name)): write: No space left on device (ENOSPC). Nothing was stored; try again."
                && failure?.data?["reason"] == "storeWriteFailed"
        }
        #expect(dir.contents(of: name) == before)
        opener.file?.refuseAppends(false)
        let next = try await store.upload(message: "later", recipients: ["cy"])
        #expect(next.id == 2)
        #expect(try await store.uploads().map(\.message) == ["kept", "later"])
    }

    @Test("after a restart every upload is read back exactly once and ids continue")
    func reloadReadsEachOnce() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let before = FileSendStore(path: dir.file(name))
        let one = try await before.upload(message: "one", recipients: ["a"])
        let two = try await before.upload(message: "two", recipients: ["b"])
        let after = FileSendStore(path: dir.file(name))
        #expect(try await after.uploads() == [one, two])
        #expect(try await after.uploads() == [one, two])
        let three = try await after.upload(message: "three", recipients: ["c"])
        #expect(three.id == 3)
        #expect(try await FileSendStore(path: dir.file(name)).uploads() == [one, two, three])
    }

    @Test("a record torn by a crash is cut off, repeated ids and foreign lines are skipped")
    func recoversFromDamage() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try dir.write("""
        {"id":1,"message":"one","recipients":["a"]}
        {"id":1,"message":"one again","recipients":["a"]}
        not json
        {"id":4,"message":"four","recipients":["d"]}
        {"id":5,"message":"torn
        """, to: name)
        let store = FileSendStore(path: dir.file(name))
        #expect(try await store.uploads().map(\.id) == [1, 4])
        let next = try await store.upload(message: "five", recipients: ["e"])
        #expect(next.id == 5)
        #expect(dir.contents(of: name) == """
        {"id":1,"message":"one","recipients":["a"]}
        {"id":1,"message":"one again","recipients":["a"]}
        not json
        {"id":4,"message":"four","recipients":["d"]}
        {"id":5,"message":"five","recipients":["e"]}

        """)
    }

    @Test("a state directory that cannot be created fails the upload with a clear message")
    func unusableDirectory() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try dir.write("a file, not a directory", to: "state")
        let store = FileSendStore(stateDirectory: dir.file("state"))
        await #expect {
            try await store.upload(message: "m", recipients: ["r"])
        } throws: { error in
            let message = (error as? SendStoreError)?.message ?? ""
            return message.hasPrefix("Could not open the send store \(dir.file("state"))/\(name): ")
                && message.hasSuffix("Nothing was stored.")
        }
    }

    @Test("the record format reads what it writes", arguments: [
        Upload(id: 1, message: "", recipients: []),
        Upload(id: 7, message: "ünïcødé ✉️\t\"x\"", recipients: ["a", "b c"]),
    ])
    func recordRoundTrip(upload: Upload) {
        let bytes = UploadLog.record(upload)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(bytes.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(UploadLog.read(bytes + bytes) == UploadLog.Contents(uploads: [upload], intactLength: bytes.count * 2, skippedLines: 1))
    }
}

extension ScratchDirectory {
    /// An existing directory inside a scratch directory (not removed on its own).
    struct Existing {
        let path: String
        init(_ path: String) throws { self.path = path }
        func contents(of name: String) -> String? {
            FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
