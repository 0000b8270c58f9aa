import JSONCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

/// A send with an idempotency key is stored at most once, also across a
/// restart of the store (a new daemon reading the same file).
@Suite("SendList's idempotency key: a retry answers with the first upload and stores nothing")
struct SendKeyTests {
    private let name = FileSendStore.fileName

    @Test("the same key twice stores one record and returns the first upload")
    func sameKeyTwice() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let store = FileSendStore(stateDirectory: dir.path)
        let first = try await store.upload(message: "Hello", recipients: ["ada"], key: "k-1")
        let retry = try await store.upload(message: "Hello", recipients: ["ada"], key: "k-1")
        #expect(retry == first)
        #expect(first == Upload(id: 1, message: "Hello", recipients: ["ada"], key: "k-1"))
        #expect(dir.contents(of: name) == #"{"id":1,"message":"Hello","recipients":["ada"],"key":"k-1"}"# + "\n")
        let other = try await store.upload(message: "Hello", recipients: ["ada"], key: "k-2")
        let keyless = try await store.upload(message: "Hello", recipients: ["ada"], key: nil)
        #expect([other.id, keyless.id] == [2, 3])
    }

    @Test("a retry after a restart finds the key in the file")
    func keySurvivesRestart() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let first = try await FileSendStore(stateDirectory: dir.path).upload(message: "Hello", recipients: ["ada"], key: "k-1")
        let restarted = FileSendStore(stateDirectory: dir.path)
        let retry = try await restarted.upload(message: "Hello", recipients: ["ada"], key: "k-1")
        #expect(retry == first)
        #expect(try await restarted.uploads() == [first])
    }

    @Test("the same key with another message fails with keyReused and stores nothing")
    func keyReused() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let store = FileSendStore(stateDirectory: dir.path)
        _ = try await store.upload(message: "Hello", recipients: ["ada"], key: "k-1")
        let error = await #expect(throws: SendStoreError.self) {
            try await store.upload(message: "Other", recipients: ["ada"], key: "k-1")
        }
        #expect(error?.data?["reason"] == "keyReused")
        #expect(try await store.uploads().count == 1)
    }

    @Test("a store that keeps no keys refuses a keyed send instead of storing it twice")
    func storeWithoutKeys() async {
        let store = MemorySendStore()
        await #expect(throws: SendStoreError.self) {
            try await store.upload(message: "Hello", recipients: ["ada"], key: "k-1")
        }
        #expect(await store.stored.isEmpty)
    }

    @Test("SendList: two sends with one key answer with the same upload id; the store holds one")
    func sendListRetry() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let scheduler = TestScheduler()
        let store = FileSendStore(stateDirectory: dir.path)
        let list = ViewModelHarness(SendList.self, args: SendList.Arguments(), services: store, scheduler: scheduler)
        list.send(\.addRecipient, "ada")
        list.send(\.message, "Hello")
        let first = list.execute(\.send, SendRequest(key: "k-1"))
        await list.settle()
        let retry = list.execute(\.send, SendRequest(key: "k-1"))
        await list.settle()
        #expect(first.values.map(\.uploadId) == [1])
        #expect(retry.values.map(\.uploadId) == [1])
        #expect(retry.values.map(\.navigation.instance) == ["sendreceipt-2"])
        #expect(try await store.uploads().map(\.id) == [1])
    }

    @Test("the wire form of send's value: null, or an object with a key and nothing else")
    func wireForm() throws {
        #expect(try SendRequest(json: .null) == SendRequest())
        #expect(try SendRequest(json: try JSONValue(parsing: #"{"key":"abc"}"#)) == SendRequest(key: "abc"))
        #expect(throws: JSONDecodingError.self) { try SendRequest(json: JSONValue(parsing: #"{"key":"abc","extra":1}"#)) }
        let schema = try JSONSchema(SendRequest.jsonSchema)
        #expect(schema.isValid(.null))
        #expect(try schema.isValid(JSONValue(parsing: #"{"key":"abc"}"#)))
        #expect(try !schema.isValid(JSONValue(parsing: #"{"key":""}"#)))
        #expect(try !schema.isValid(JSONValue(parsing: #"{}"#)))
        #expect(!schema.isValid("abc"))
    }
}
