import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

/// Wraps a service and writes down every call, in order ("load vmd", "set false vmd").
private final class RecordingFollowService: FollowService {
    private let base: any FollowService
    private let log = Mutex<[String]>([])

    init(_ base: any FollowService) {
        self.base = base
    }

    var calls: [String] { log.withLock { $0 } }

    func isFollowing(userId: String) async throws -> Bool {
        log.withLock { $0.append("load \(userId)") }
        return try await base.isFollowing(userId: userId)
    }

    func setFollowing(_ following: Bool, userId: String) async throws -> Bool {
        log.withLock { $0.append("set \(following) \(userId)") }
        return try await base.setFollowing(following, userId: userId)
    }
}

/// Fails its first call (a load at creation that cannot reach the network), then works.
private actor FailsFirstCall: FollowService {
    private var calls = 0
    private var state = false

    func isFollowing(userId: String) async throws -> Bool {
        calls += 1
        if calls == 1 { throw ActionFailure("No connection.") }
        return state
    }

    func setFollowing(_ following: Bool, userId: String) async throws -> Bool {
        state = following
        return following
    }
}

@Suite("Follow: loaded at creation, toggled through the service, failures as events")
struct FollowTests {
    private struct Made {
        let follow: ViewModelHarness<Follow>
        let service: RecordingFollowService
        let isFollowing: Recording<Bool>
        let isLoading: Recording<Bool>
        let failure: Recording<String>
    }

    private func makeFollow(_ args: Follow.Arguments = Follow.Arguments(), base: (any FollowService)? = nil, scheduler: TestScheduler) -> Made {
        let service = RecordingFollowService(base ?? InMemoryFollowService(initial: args.initial, failEvery: args.failEvery))
        let follow = ViewModelHarness(Follow.self, args: args, services: { _ in service }, scheduler: scheduler)
        return Made(
            follow: follow, service: service,
            isFollowing: follow.record(\.isFollowing),
            isLoading: follow.record(\.isLoading),
            failure: follow.record(\.failure))
    }

    @Test("the initial request at creation loads isFollowing, with isLoading around it")
    func initialLoad() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(userId: "ada", latencyMs: 500), scheduler: scheduler)
        scheduler.advance(to: 500)
        await made.follow.settle()
        #expect(made.isLoading.events == [.next(0, true), .next(500, false)])
        #expect(made.isFollowing.events == [.next(0, false), .next(500, true)])
        #expect(made.failure.events.isEmpty)
        #expect(made.service.calls == ["load ada"])
    }

    @Test("a first answer of false is not published as a change")
    func initialFalse() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(initial: false, latencyMs: 0), scheduler: scheduler)
        await made.follow.settle()
        #expect(made.isFollowing.values == [false])
        #expect(made.isLoading.values == [true, false])
    }

    @Test("toggle sends the opposite state and publishes the service's answer")
    func toggles() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(latencyMs: 500), scheduler: scheduler)
        scheduler.advance(to: 500)
        await made.follow.settle()
        scheduler.advance(to: 600)
        let unfollow = made.follow.execute(\.toggle)
        scheduler.advance(to: 1100)
        await made.follow.settle()
        scheduler.advance(to: 1200)
        let refollow = made.follow.execute(\.toggle)
        scheduler.advance(to: 1700)
        await made.follow.settle()
        #expect(made.isFollowing.events == [.next(0, false), .next(500, true), .next(1100, false), .next(1700, true)])
        #expect(made.isLoading.events == [
            .next(0, true), .next(500, false), .next(600, true), .next(1100, false), .next(1200, true), .next(1700, false),
        ])
        #expect(unfollow.values == [false])
        #expect(refollow.values == [true])
        #expect(made.service.calls == ["load vmd", "set false vmd", "set true vmd"])
    }

    @Test("toggle is not enabled before the state is known")
    func toggleWaitsForTheLoad() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(latencyMs: 500), scheduler: scheduler)
        scheduler.advance(to: 100)
        let early = made.follow.execute(\.toggle)
        #expect(early.error as? ActionError == .notEnabled)
        scheduler.advance(to: 500)
        await made.follow.settle()
        #expect(made.service.calls == ["load vmd"])
        #expect(made.failure.events.isEmpty)
    }

    @Test("rapid toggles: the second is refused while the first runs, the third flips the answer")
    func rapidToggles() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(latencyMs: 300), scheduler: scheduler)
        scheduler.advance(to: 300)
        await made.follow.settle()
        let first = made.follow.execute(\.toggle)
        let second = made.follow.execute(\.toggle)
        scheduler.advance(to: 350)
        let reload = made.follow.execute(\.reload)
        #expect(second.error as? ActionError == .notEnabled)
        #expect(reload.error as? ActionError == .notEnabled)
        scheduler.advance(to: 600)
        await made.follow.settle()
        let third = made.follow.execute(\.toggle)
        scheduler.advance(to: 900)
        await made.follow.settle()
        #expect(first.values == [false])
        #expect(third.values == [true])
        #expect(made.isFollowing.events == [.next(0, false), .next(300, true), .next(600, false), .next(900, true)])
        #expect(made.isLoading.events == [.next(0, true), .next(300, false), .next(300, true), .next(600, false), .next(600, true), .next(900, false)])
        #expect(made.failure.events.isEmpty)
        #expect(made.service.calls == ["load vmd", "set false vmd", "set true vmd"])
    }

    @Test("a failed toggle is an event: loading ends, the state stays, the next toggle works")
    func failedToggle() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(latencyMs: 100, failEvery: 2), scheduler: scheduler)
        scheduler.advance(to: 100)
        await made.follow.settle()
        let failed = made.follow.execute(\.toggle)
        scheduler.advance(to: 200)
        await made.follow.settle()
        let retried = made.follow.execute(\.toggle)
        scheduler.advance(to: 300)
        await made.follow.settle()
        let message = "The follow service did not answer; try again. (Simulated: every 2 calls, one fails.)"
        #expect(made.failure.events == [.next(200, message)])
        #expect(made.isLoading.events == [.next(0, true), .next(100, false), .next(100, true), .next(200, false), .next(200, true), .next(300, false)])
        #expect(made.isFollowing.events == [.next(0, false), .next(100, true), .next(300, false)])
        #expect(failed.error as? ActionError == .underlyingError(ActionFailure(message, data: ["reason": "simulatedFailure", "call": 2])))
        #expect(retried.values == [false])
    }

    @Test("a failed initial load is an event, and reload recovers")
    func failedLoad() async {
        let scheduler = TestScheduler()
        let made = makeFollow(Follow.Arguments(latencyMs: 0), base: FailsFirstCall(), scheduler: scheduler)
        await made.follow.settle()
        #expect(made.failure.values == ["No connection."])
        #expect(made.isLoading.values == [true, false])
        #expect(made.follow.execute(\.toggle).error as? ActionError == .notEnabled)
        let reload = made.follow.execute(\.reload)
        await made.follow.settle()
        #expect(reload.values == [false])
        let toggle = made.follow.execute(\.toggle)
        await made.follow.settle()
        #expect(toggle.values == [true])
        #expect(made.isFollowing.values == [false, true])
        #expect(made.service.calls == ["load vmd", "load vmd", "set true vmd"])
    }

    @Test("destroying the instance during the initial request cancels it")
    func destroyCancelsTheLoad() throws {
        let scheduler = TestScheduler()
        let service = RecordingFollowService(InMemoryFollowService())
        var registry = ViewModelRegistry()
        try registry.register(Follow.self, services: { _ in service })
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let follow = try host.create(type: "Follow", args: ["latencyMs": 500])
        #expect(try follow.currentValue(output: "isLoading") == true)
        scheduler.advance(to: 100)
        try host.destroy(follow.id)
        scheduler.start()
        // The latency timer due at 500 was cancelled: a cancelled timer does not move the
        // virtual clock, so the service was never about to be called.
        #expect(scheduler.clock == 100)
        #expect(scheduler.pendingEnqueuedCount == 0)
        #expect(service.calls.isEmpty)
    }

    @Test("destroying the instance releases its graph: the per-instance service is freed")
    func destroyReleases() async throws {
        let scheduler = TestScheduler()
        let probe = ServiceProbe()
        var registry = ViewModelRegistry()
        try registry.register(Follow.self, services: { args in probe.make(args) })
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let follow = try host.create(type: "Follow", args: ["latencyMs": 0])
        await settle(scheduler)
        #expect(try await { () async throws -> JSONValue? in
            var result: Result<JSONValue, ViewModelError>?
            _ = try follow.execute(action: "toggle", value: nil) { result = $0 }
            await settle(scheduler)
            return try result?.get()
        }() == false)
        #expect(probe.isAlive)
        try host.destroy(follow.id)
        #expect(!probe.isAlive)
    }

    @Test("the built-in service keeps each user's state and fails every Nth call")
    func inMemoryService() async throws {
        let service = InMemoryFollowService(initial: false, failEvery: 3)
        #expect(try await service.isFollowing(userId: "ada") == false)
        #expect(try await service.setFollowing(true, userId: "ada") == true)
        await #expect(throws: ActionFailure.self) { try await service.isFollowing(userId: "ada") }
        #expect(try await service.isFollowing(userId: "ada") == true)
        #expect(try await service.isFollowing(userId: "bob") == false)
    }

    @Test("creation arguments: defaults, and the schema's bounds")
    func arguments() throws {
        #expect(try Follow.Arguments(json: [:]) == Follow.Arguments(userId: "vmd", initial: true, latencyMs: 500, failEvery: 0))
        let schema = try JSONSchema(Follow.Arguments.jsonSchema)
        #expect(schema.isValid(["userId": "ada", "initial": false, "latencyMs": 0, "failEvery": 3]))
        #expect(!schema.isValid(["userId": ""]))
        #expect(!schema.isValid(["failEvery": -1]))
        #expect(!schema.isValid(["failUserIds": ["ada"]]))
    }

    @Test("vm.types describes Follow completely")
    func description() throws {
        #expect(try describe(Follow.self) == """
        {"name":"Follow","summary":"A follow button: loads whether you follow a user, then toggles it through a service.",\
        "args":{"type":"object","properties":{\
        "userId":{"type":"string","minLength":1,"maxLength":64,"description":"The user to follow.","default":"vmd"},\
        "initial":{"type":"boolean","description":"Whether the built-in service starts out following.","default":true},\
        "latencyMs":{"type":"integer","minimum":0,"maximum":600000,"default":500},\
        "failEvery":{"type":"integer","minimum":0,"description":"The built-in service fails every Nth call (the initial load is call 1); 0 never fails.","default":0}},\
        "additionalProperties":false},\
        "inputs":[],\
        "outputs":[\
        {"name":"isFollowing","summary":"Whether you follow the user, as the service last said.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"isLoading","summary":"A request to the service is running (the initial load, toggle or reload).","kind":"state","schema":{"type":"boolean"}},\
        {"name":"failure","summary":"Why a request failed, for a person; isFollowing stays as it was.","kind":"event","schema":{"type":"string"}}],\
        "actions":[\
        {"name":"toggle","summary":"Ask the service for the opposite of isFollowing; returns the new state. Enabled once the state is known.","input":{"type":"null"},"output":{"type":"boolean"}},\
        {"name":"reload","summary":"Ask the service for the current state again; returns it.","input":{"type":"null"},"output":{"type":"boolean"}}]}
        """)
    }
}

/// Makes one in-memory service per instance and watches, weakly, whether it is still held.
private final class ServiceProbe: Sendable {
    private struct Weak { weak var service: RecordingFollowService? }
    private let made = Mutex(Weak())

    func make(_ args: Follow.Arguments) -> any FollowService {
        let service = RecordingFollowService(InMemoryFollowService(initial: args.initial, failEvery: args.failEvery))
        made.withLock { $0.service = service }
        return service
    }

    var isAlive: Bool { made.withLock { $0.service != nil } }
}
