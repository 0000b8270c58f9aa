import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("SendHistory: the store read back, each upload once")
struct SendHistoryTests {
    @Test("a new instance after a restart lists each acknowledged upload once; reload sees new ones")
    func readsBackAfterRestart() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let before = FileSendStore(stateDirectory: dir.path)
        let one = try await before.upload(message: "one", recipients: ["a"])
        let two = try await before.upload(message: "two", recipients: ["b", "c"])
        // A daemon restart: a fresh store on the same file.
        let after = FileSendStore(stateDirectory: dir.path)
        let scheduler = TestScheduler()
        let history = ViewModelHarness(SendHistory.self, args: NoArguments(), services: after, scheduler: scheduler)
        let uploads = history.record(\.uploads)
        let isLoading = history.record(\.isLoading)
        await history.settle()
        #expect(uploads.values == [[], [one, two]])
        #expect(isLoading.values == [true, false])
        let three = try await after.upload(message: "three", recipients: ["d"])
        let reload = history.execute(\.reload)
        await history.settle()
        #expect(reload.values == [[one, two, three]])
        #expect(uploads.values == [[], [one, two], [one, two, three]])
    }

    @Test("a store that cannot be read is a failure event, not a stuck spinner")
    func unreadableStore() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try dir.write("not a directory", to: "state")
        let scheduler = TestScheduler()
        let history = ViewModelHarness(SendHistory.self, args: NoArguments(), services: FileSendStore(stateDirectory: dir.file("state")), scheduler: scheduler)
        let failure = history.record(\.failure)
        let isLoading = history.record(\.isLoading)
        await history.settle()
        #expect(failure.values.count == 1)
        #expect(failure.values.first?.hasPrefix("Could not open the send store") == true)
        #expect(isLoading.values == [true, false])
        #expect(history.ports.uploads.value == [])
    }

    @Test("vm.types describes SendHistory completely")
    func description() throws {
        let upload = """
        {"type":"object","properties":{"id":{"type":"integer","minimum":1},"message":{"type":"string"},\
        "recipients":{"type":"array","items":{"type":"string"}},\
        "key":{"type":"string","minLength":1,"maxLength":128,"description":"An idempotency key the client chose: a send with a key already stored is answered with that upload instead of storing it again."}},\
        "required":["id","message","recipients"],"additionalProperties":false}
        """
        #expect(try describe(SendHistory.self) == """
        {"name":"SendHistory","summary":"The uploads SendList has stored, read back from the store, each once.",\
        "args":{"type":"object","properties":{},"additionalProperties":false},\
        "inputs":[],\
        "outputs":[\
        {"name":"uploads","summary":"Every stored upload, oldest first, as the store last said.","kind":"state","schema":{"type":"array","items":\(upload)}},\
        {"name":"isLoading","summary":"The store is being read.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"failure","summary":"Why reading the store failed, for a person; uploads stays as it was.","kind":"event","schema":{"type":"string"}}],\
        "actions":[{"name":"reload","summary":"Read the store again; returns the uploads.","input":{"type":"null"},"output":{"type":"array","items":\(upload)}}]}
        """)
    }
}
