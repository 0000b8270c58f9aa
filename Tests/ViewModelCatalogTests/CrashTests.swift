import Foundation
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("FileSendStore survives kill -9 right after acknowledging")
struct CrashTests {
    @Test("an upload acknowledged just before SIGKILL is read back once by the next process")
    func survivesKillNine() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let stateDirectory = dir.path
        let before = FileSendStore(stateDirectory: stateDirectory)
        _ = try await before.upload(message: "before the crash", recipients: ["ada"])
        // A separate process uploads, and kills itself with SIGKILL the moment the store
        // acknowledges: no buffer flush, no destructor, no atexit handler runs.
        await #expect(processExitsWith: .signal(SIGKILL)) { [stateDirectory = stateDirectory as String] in
            let store = FileSendStore(stateDirectory: stateDirectory)
            let upload = try await store.upload(message: "acknowledged", recipients: ["bob", "cy"])
            if upload.id == 2 { kill(getpid(), SIGKILL) }
        }
        let after = FileSendStore(stateDirectory: stateDirectory)
        #expect(try await after.uploads() == [
            Upload(id: 1, message: "before the crash", recipients: ["ada"]),
            Upload(id: 2, message: "acknowledged", recipients: ["bob", "cy"]),
        ])
        #expect(try await after.upload(message: "after", recipients: ["d"]).id == 3)
    }

    @Test("SendList killed at the moment it announces the receipt: after restart the send is there, once")
    func sendListKilledAtNavigate() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let stateDirectory = dir.path
        await #expect(processExitsWith: .signal(SIGKILL)) { [stateDirectory = stateDirectory as String] in
            let scheduler = TestScheduler()
            let list = ViewModelHarness(SendList.self, args: SendList.Arguments(), services: FileSendStore(stateDirectory: stateDirectory), scheduler: scheduler)
            // The acknowledged send: its navigate event is where the daemon would reply.
            list.ports.navigate.subscribe(onNext: { _ in kill(getpid(), SIGKILL) }).disposed(by: list.bag)
            list.send(\.addRecipient, "ada")
            list.send(\.message, "Hello")
            list.execute(\.send, SendRequest())
            _ = await scheduler.waitForEnqueued()
            scheduler.advance()
        }
        let scheduler = TestScheduler()
        let history = ViewModelHarness(SendHistory.self, args: NoArguments(), services: FileSendStore(stateDirectory: stateDirectory), scheduler: scheduler)
        let uploads = history.record(\.uploads)
        await settle(scheduler)
        #expect(uploads.values == [[], [Upload(id: 1, message: "Hello", recipients: ["ada"])]])
    }
}
