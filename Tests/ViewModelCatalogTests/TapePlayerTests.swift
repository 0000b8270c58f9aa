import JSONCore
import Posix
import ReactiveTesting
import Testing
import ViewModelCatalog
import ViewModelKit
import ViewModelTesting

/// The tapes recorded against vmd (Tests/Tapes) replayed in-process by ``TapePlayer`` on
/// virtual time: green as recorded, and failing with the divergence when the tape or the
/// view model changes.
@Suite("Replaying tapes in-process")
struct TapePlayerTests {
    static func tape(_ name: String) throws -> String {
        let tests = FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: #filePath) ?? "") ?? ""
        return String(decoding: try FileSystem.readFile(tests + "/Tapes/" + name), as: UTF8.self)
    }

    static func registry(auth: any AuthService = DemoAuthService()) throws -> ViewModelRegistry {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        try registry.register(Login.self, services: auth)
        return registry
    }

    /// Says no to everyone: a Login whose behaviour changed.
    private struct RefusingAuth: AuthService {
        func signIn(email: String, password: String) async throws -> String {
            throw ActionFailure("Accounts are closed.")
        }
    }

    @Test("the recorded Counter and Login tapes replay green", arguments: ["counter.tape", "login.tape"])
    func recordedTapes(name: String) async throws {
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: try Self.tape(name)) }
    }

    @Test("a changed expectation fails with expected versus got and the step before it")
    func changedTape() async throws {
        let changed = try Self.tape("counter.tape").replacing(#""value":40}"#, with: #""value":41}"#)
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: TapePlayer.Failure.divergence("""
            output "count" differs at value #4
              expected: 41
              got:      40
              after:    step 3 (line 7): input set 40
            """)) { try await player.replay(tape: changed) }
    }

    /// The failure a replay ends with, `nil` when it matched.
    static func failure(of text: String, registry: ViewModelRegistry) async -> TapePlayer.Failure? {
        do {
            try await TapePlayer(registry: registry).replay(tape: text)
            return nil
        } catch {
            return error
        }
    }

    @Test("a Login whose service changed fails at the submit step")
    func changedViewModel() async throws {
        let failure = await Self.failure(of: try Self.tape("login.tape"), registry: try Self.registry(auth: RefusingAuth()))
        #expect(failure == .divergence("""
            step 3 (line 7): action submit had another outcome
              expected: {"result":"demo@example.com"}
              got:      {"error":{"name":"actionFailed"}}
            """))
    }

    @Test("bad tapes are refused with what is wrong", arguments: [
        ("", "bad tape: the tape is empty"),
        (#"{"tape":3,"type":"Counter"}"#, "bad tape: line 1: unsupported tape version 3; this reads versions 1 to 2"),
        (#"{"tape":2,"type":"Counter","fromCreation":false,"dropped":4}"#, "bad tape: the recorder dropped the first 4 events"),
        (#"{"tape":1,"type":"Nope"}"#, "bad tape: cannot create a Nope"),
        ("{\"tape\":1,\"type\":\"Counter\"}\n{\"event\":\"action\",\"action\":\"reset\"}", "is the tape truncated?"),
    ])
    func badTapes(text: String, expected: String) async throws {
        let failure = await Self.failure(of: text, registry: try Self.registry())
        let description = failure?.description ?? "(replayed green)"
        #expect(description.hasPrefix("bad tape: "), "\(description)")
        #expect(description.contains(expected), "\(description)")
    }
}
