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

    static func registry(auth: any AuthService = DemoAuthService(), sendStore: any SendStore = MemorySendStore()) throws -> ViewModelRegistry {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        try registry.register(Login.self, services: auth)
        try registry.register(Follow.self, services: InMemoryFollowService.factory)
        try registry.register(TodoList.self)
        try registry.register(SendList.self, services: sendStore)
        try registry.register(SendReceipt.self)
        try registry.register(Search.self, services: InMemorySearchIndex())
        return registry
    }

    /// Says no to everyone: a Login whose behaviour changed.
    private struct RefusingAuth: AuthService {
        func signIn(email: String, password: String) async throws -> String {
            throw ActionFailure("Accounts are closed.")
        }
    }

    @Test("the recorded Counter, Login and TodoList tapes replay green", arguments: ["counter.tape", "login.tape", "todolist.tape"])
    func recordedTapes(name: String) async throws {
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: try Self.tape(name)) }
    }

    @Test("the Follow tape vmd recorded from creation (a load at creation, a toggle) replays green")
    func followFromCreation() async throws {
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: try Self.tape("follow.tape")) }
    }

    /// A Follow whose service takes 2 s, toggled after a 1 s pause: 5 s of recorded time.
    static let slowFollow = """
        {"tape":2,"type":"Follow","args":{"latencyMs":2000},"instance":"f","fromCreation":true}
        {"event":"output","t":0,"output":"isFollowing","value":false,"replay":true}
        {"event":"output","t":0,"output":"isLoading","value":true,"replay":true}
        {"event":"output","t":2000,"output":"isFollowing","value":true}
        {"event":"output","t":2000,"output":"isLoading","value":false}
        {"event":"action","t":3000,"action":"toggle","connection":3,"outcome":{"result":false}}
        {"event":"output","t":3000,"output":"isLoading","value":true}
        {"event":"output","t":5000,"output":"isFollowing","value":false}
        {"event":"output","t":5000,"output":"isLoading","value":false}

        """

    /// (Wall-clock time is not asserted: on a loaded machine a task may wait seconds for a
    /// thread. Alone, this replay takes about 10 ms.)
    @Test("a 2 s service with a 1 s pause replays on virtual time: the toggle at 3 s, the answer at 5 s")
    func virtualTime() async throws {
        let scheduler = TestScheduler()
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: Self.slowFollow, scheduler: scheduler) }
        #expect(scheduler.clock >= 5000, "virtual time reached \(scheduler.clock) ms")
    }

    @Test("the toggle sent before the load ends (no pause) is refused: the replay honours t")
    func stepsWaitForTheirTime() async throws {
        let rushed = Self.slowFollow.replacing(#""t":3000,"action""#, with: #""t":1000,"action""#)
        let failure = await Self.failure(of: rushed, registry: try Self.registry())
        #expect(failure?.description.contains("action toggle had another outcome") == true, "\(String(describing: failure))")
        #expect(failure?.description.contains("actionNotEnabled") == true, "\(String(describing: failure))")
    }

    @Test("an action with the tape's timeoutMs times out on virtual time, as it did in the daemon")
    func actionTimeout() async throws {
        // Recorded from vmd: a toggle with timeoutMs 100 against a 300 ms service.
        let tape = """
            {"tape":2,"type":"Follow","args":{"latencyMs":300},"instance":"ft","fromCreation":true}
            {"event":"output","t":0,"output":"isFollowing","value":false,"replay":true}
            {"event":"output","t":0,"output":"isLoading","value":true,"replay":true}
            {"event":"output","t":303,"output":"isFollowing","value":true}
            {"event":"output","t":303,"output":"isLoading","value":false}
            {"event":"action","t":528,"action":"toggle","timeoutMs":100,"connection":2,"outcome":{"error":{"code":-31009,"message":"Action \\"toggle\\" of ft did not finish within 100 ms and was cancelled.","data":{"name":"actionTimedOut","instance":"ft","action":"toggle","timeoutMs":100}}}}
            {"event":"output","t":528,"output":"isLoading","value":true}
            {"event":"output","t":628,"output":"isLoading","value":false}

            """
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: tape) }
        // Without the timeout the toggle answers: another outcome.
        let failure = await Self.failure(of: tape.replacing(#""timeoutMs":100,"connection""#, with: #""connection""#), registry: try Self.registry())
        #expect(failure?.description.contains("action toggle had another outcome") == true, "\(String(describing: failure))")
    }

    @Test("a changed logic (Follow starting unfollowed) fails at the first divergence")
    func mutatedFollow() async throws {
        let mutated = Self.slowFollow.replacing(#""latencyMs":2000}"#, with: #""latencyMs":2000,"initial":false}"#)
        let failure = await Self.failure(of: mutated, registry: try Self.registry())
        // Loaded as unfollowed (no new value), the toggle then follows: its outcome is the first change.
        #expect(failure == .divergence("""
            step 1 (line 6): action toggle had another outcome
              expected: {"result":false}
              got:      {"result":true}
            """))
    }

    @Test("the SendList tape vmd recorded (its second upload, its second receipt) replays green: ids matched by place")
    func sendListIdsMatched() async throws {
        let tape = try Self.tape("sendlist.tape")
        // Recorded as upload 2 and receipt 2: this replay's fresh store and host make up others.
        #expect(tape.contains(#""uploadId":2"#) && tape.contains(#""ids":{"#))
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: tape) }
    }

    @Test("a SendList whose store is down fails at the send")
    func sendListStoreDown() async throws {
        let store = MemorySendStore()
        await store.fail(true)
        let failure = await Self.failure(of: try Self.tape("sendlist.tape"), registry: try Self.registry(sendStore: store))
        #expect(failure == .divergence("""
            step 4 (line 11): action send had another outcome
              expected: {"result":{"uploadId":2,"type":"SendReceipt","instance":"sendreceipt-2"}}
              got:      {"error":{"name":"actionFailed"}}
            """), "\(String(describing: failure))")
    }

    @Test("a send that announces another scene than it returns fails at the send: the ids no longer match")
    func sendListInconsistentIds() async throws {
        let tape = try Self.tape("sendlist.tape")
        let navigate = tape.split(separator: "\n").first { $0.contains(#""output":"navigate""#) }.map(String.init) ?? ""
        let mutated = tape.replacing(navigate, with: navigate.replacing(#""instance":"sendreceipt-2""#, with: #""instance":"sendreceipt-9""#))
        let failure = await Self.failure(of: mutated, registry: try Self.registry())
        // The announcement comes first and binds the replay's receipt to sendreceipt-9: the
        // result, which names the same receipt, then reads as sendreceipt-9, not the tape's 2.
        #expect(failure == .divergence("""
            step 4 (line 11): action send had another outcome
              expected: {"result":{"uploadId":2,"type":"SendReceipt","instance":"sendreceipt-2"}}
              got:      {"result":{"uploadId":2,"type":"SendReceipt","instance":"sendreceipt-9"}}
            """), "\(String(describing: failure))")
    }

    @Test("the search vmd recorded, the user waiting for results between keystrokes, replays green on virtual time")
    func searchAsYouType() async throws {
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: try Self.tape("search.tape")) }
    }

    @Test("the same search typed without pauses fails where the debounce swallowed a query")
    func searchRushed() async throws {
        // Every step at t 0: one debounced query, one search.
        var lines = try Self.tape("search.tape").split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where line.contains(#""event":"input""#) {
            lines[index] = line.replacing(/"t":[0-9]+/, with: #""t":0"#)
        }
        let failure = await Self.failure(of: lines.joined(separator: "\n"), registry: try Self.registry())
        #expect(failure?.description.contains(#"output "results" differs"#) == true || failure?.description.contains(#"output "isSearching" differs"#) == true,
                "\(String(describing: failure))")
    }

    @Test("the same search with a slower service (5 s) fails: the next keystroke supersedes the search the user waited for")
    func searchSlowerService() async throws {
        let slower = try Self.tape("search.tape").replacing(#""latencyMs":400"#, with: #""latencyMs":5000"#)
        let failure = await Self.failure(of: slower, registry: try Self.registry())
        #expect(failure == .divergence("""
            output "results" differs at value #2
              expected: ["blackberry","blackcurrant","blueberry"]
              got:      ["blackberry","blackcurrant"]
              after:    step 2 (line 5): input query "bl"
            """), "\(String(describing: failure))")
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
        (#"{"tape":4,"type":"Counter"}"#, "bad tape: line 1: unsupported tape version 4; this reads versions 1 to 3"),
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
