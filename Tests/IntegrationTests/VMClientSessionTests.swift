import JSONCore
import Posix
import Testing
@testable import VMClient
import VMTestSupport
import VMProtocol

/// VMClient resuming its session (Protocol/PROTOCOL.md, section 18) against the real vmd: the
/// client's socket is dropped mid-stream (``VMClient/dropConnection()``, as a network failure
/// would) and the client resumes on its own.
@Suite("VMClient resumes its session after a drop")
struct VMClientSessionTests {
    private static let policy = VMReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    private struct Daemon {
        let directory: TemporarySocketDirectory
        let process: DaemonProcess
        var location: VMSocketLocation { VMSocketLocation(path: directory.socketPath) }

        static func start(_ arguments: [String] = []) throws -> Daemon {
            let directory = try TemporarySocketDirectory()
            let process = try DaemonProcess.start(socketPath: directory.socketPath, arguments: arguments, directory: directory)
            return Daemon(directory: directory, process: process)
        }

        func stop() {
            process.stop()
            directory.remove(["config"])
        }
    }

    /// Waits for the first event `matches` accepts, skipping the others.
    private static func next<T>(_ events: AsyncStream<VMClientEvent>, _ matches: (VMClientEvent) -> T?) async -> T? {
        for await event in events {
            if let found = matches(event) { return found }
        }
        return nil
    }

    /// Reads `subscription` until the output carrying `target` (or its end): the seqs that
    /// arrived and the ranges it reported lost.
    private static func read(
        _ subscription: VMSubscription, until target: Int
    ) async throws -> (seqs: [Int64], lost: [ClosedRange<Int64>]) {
        var seqs: [Int64] = []
        var lost: [ClosedRange<Int64>] = []
        reading: for try await event in subscription {
            switch event {
            case .output(let output):
                seqs.append(output.seq)
                if output.value == .integer(Int64(target)) { break reading }
            case .overflow(let range):
                lost.append(range)
            case .closed:
                break reading
            }
        }
        return (seqs, lost)
    }

    /// The seqs that arrived or were reported lost, by the subscription or by the resume.
    private static func covered(_ seqs: [Int64], _ lost: [ClosedRange<Int64>], _ reported: [VMLostRange]) -> Set<Int64> {
        var covered = Set(seqs)
        for range in lost { covered.formUnion(range) }
        for range in reported { covered.formUnion(range.fromSeq...range.toSeq) }
        return covered
    }

    @Test("a reconnecting client opens a session; one without reconnecting does not")
    func opensASession() async throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let resuming = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        defer { resuming.close() }
        #expect(resuming.sessionID?.hasPrefix("s") == true)
        let plain = try await VMClient.connect(to: daemon.location)
        defer { plain.close() }
        #expect(plain.sessionID == nil)
    }

    @Test("close() ends the session at once: another subscriber sees ownerDisconnected without waiting for the grace",
          .timeLimit(.minutes(1)))
    func closeEndsTheSession() async throws {
        let daemon = try Daemon.start(["--session-grace-ms", "600000"])
        defer { daemon.stop() }
        let owner = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        let watcher = try await VMClient.connect(to: daemon.location)
        defer { watcher.close() }
        #expect(owner.sessionID != nil)
        let counter = try await owner.create(type: "Counter", scope: .connection)
        let subscription = try await watcher.subscribe(instance: counter.instance, options: SubscribeOptions(outputs: ["count"]))
        owner.close()
        var last: VMSubscriptionEvent? = nil
        for try await event in subscription { last = event }
        #expect(last == .closed(reason: "ownerDisconnected"))
    }

    @Test("during a 10,000-increment burst: every seq arrives once, in order, or is reported lost; the instance is the same",
          .timeLimit(.minutes(1)))
    func burstAcrossADrop() async throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        defer { client.close() }
        let other = try await VMClient.connect(to: daemon.location)
        defer { other.close() }
        let counter = try await client.create(type: "Counter", scope: .connection, subscribe: SubscribeOptions(outputs: ["count"]))
        let subscription = try #require(counter.subscription)
        let session = try #require(client.sessionID)
        let resumed = Task { await Self.next(client.events) { if case .resumed(let id, let lost) = $0 { (id, lost) } else { nil } } }
        for index in 0..<10_000 {
            try other.sendAndForget(instance: counter.instance, input: "increment")
            if index == 3_000 { client.dropConnection() }
        }
        #expect(try await other.get(instance: counter.instance, output: "count") == 10_000)
        let (seqs, lost) = try await Self.read(subscription, until: 10_000)
        let (resumedSession, reported) = try #require(await resumed.value)
        #expect(resumedSession == session)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "each seq once, in order")
        let last = try #require(seqs.last)
        #expect(Self.covered(seqs, lost, reported).isSuperset(of: Set(1...last)), "every seq delivered or reported lost")
        #expect(seqs.first == 1)
        // Still this client's connection-scoped instance.
        #expect(try await client.get(instance: counter.instance, output: "count") == 10_000)
    }

    @Test("values the dropped socket took with it are reported lost, and the newest value still arrives",
          .timeLimit(.minutes(1)))
    func tailLostWithTheSocket() async throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        defer { client.close() }
        let other = try await VMClient.connect(to: daemon.location)
        defer { other.close() }
        let counter = try await client.create(type: "Counter", scope: .connection, subscribe: SubscribeOptions(outputs: ["count"]))
        let subscription = try #require(counter.subscription)
        let resumed = Task { await Self.next(client.events) { if case .resumed(_, let lost) = $0 { lost } else { nil } } }
        // The client's loop stalls before the drop, so the daemon hands (most of) the burst to
        // the socket that is then closed unread: nothing of it may follow the resume.
        client.dropConnection(afterStalling: .milliseconds(300))
        for _ in 0..<1_000 { try other.sendAndForget(instance: counter.instance, input: "increment") }
        #expect(try await other.get(instance: counter.instance, output: "count") == 1_000)
        let (seqs, lost) = try await Self.read(subscription, until: 1_000)
        let reported = try #require(await resumed.value)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "each seq once, in order")
        let last = try #require(seqs.last)
        #expect(Self.covered(seqs, lost, reported).isSuperset(of: Set(1...last)), "every seq delivered or reported lost")
        #expect(try await client.get(instance: counter.instance, output: "count") == 1_000)
    }

    @Test("a session resumes again after a second drop, seq going on gap-free when nothing was in flight")
    func resumesTwice() async throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        defer { client.close() }
        let counter = try await client.create(type: "Counter", scope: .connection, subscribe: SubscribeOptions(outputs: ["count"]))
        var values = try #require(counter.subscription).makeAsyncIterator()
        var events = client.events.makeAsyncIterator()
        var seqs: [Int64] = []
        for round in 1...2 {
            try await client.send(instance: counter.instance, input: "increment")
            client.dropConnection()
            var resumed: [VMLostRange]? = nil
            while resumed == nil, let event = await events.next() {
                if case .resumed(_, let lost) = event { resumed = lost }
            }
            #expect(resumed == [], "round \(round): nothing was in flight")
            try await client.send(instance: counter.instance, input: "increment")
            while seqs.count < 2 * round + 1, case .output(let output)? = try await values.next() { seqs.append(output.seq) }
        }
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(try await client.get(instance: counter.instance, output: "count") == 4)
    }

    @Test("a slow Login submit pending across the drop gets its reply")
    func pendingSubmitAnswered() async throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: daemon.location, options: .init(reconnect: Self.policy))
        defer { client.close() }
        let login = try await client.create(type: "Login", args: ["latencyMs": 800], scope: .connection)
        try await client.send(instance: login.instance, input: "email", value: "demo@example.com")
        try await client.send(instance: login.instance, input: "password", value: "secret")
        let resumed = Task { await Self.next(client.events) { if case .resumed(_, let lost) = $0 { lost } else { nil } } }
        let submit = Task { try await client.execute(instance: login.instance, action: "submit", timeoutMs: 10_000) }
        try await Task.sleep(for: .milliseconds(100))
        client.dropConnection()
        #expect(try await submit.value == "demo@example.com")
        #expect(await resumed.value == [])
    }

    @Test("a resume after the grace: sessionExpired, subscriptions end with that reason, the instance is gone")
    func resumeAfterGrace() async throws {
        let daemon = try Daemon.start(["--session-grace-ms", "100"])
        defer { daemon.stop() }
        let slow = VMReconnectPolicy(initialDelay: .milliseconds(600), maximumDelay: .seconds(1))
        let client = try await VMClient.connect(to: daemon.location, options: .init(reconnect: slow))
        defer { client.close() }
        let counter = try await client.create(type: "Counter", scope: .connection, subscribe: SubscribeOptions(outputs: ["count"]))
        let subscription = try #require(counter.subscription)
        let expired = Task { await Self.next(client.events) { if case .sessionExpired(let id) = $0 { id } else { nil } } }
        client.dropConnection()
        var last: VMSubscriptionEvent? = nil
        for try await event in subscription { last = event }
        #expect(last == .closed(reason: "sessionExpired"))
        #expect(await expired.value != nil)
        await #expect(throws: VMClientError.self) { try await client.get(instance: counter.instance, output: "count") }
        #expect(client.sessionID != nil, "the client goes on with a new session")
    }

    @Test("after a daemon restart: daemonRestarted, a subscription to a non-durable instance ends, a new session")
    func daemonRestart() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["config"]) }
        let first = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        let client = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath), options: .init(reconnect: Self.policy))
        defer { client.close() }
        let firstBoot = try #require(client.connectInfo?.bootId)
        let counter = try await client.create(type: "Counter", subscribe: SubscribeOptions(outputs: ["count"]))
        let subscription = try #require(counter.subscription)
        let restarted = Task { await Self.next(client.events) { if case .daemonRestarted(let boot) = $0 { boot } else { nil } } }
        first.stop()
        let second = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { second.stop() }
        var last: VMSubscriptionEvent? = nil
        for try await event in subscription { last = event }
        // vm.closed "shutdown" when the daemon said goodbye first (the Counter is not durable);
        // "daemonRestarted" otherwise (VMClientRestartTests follows a durable one).
        #expect(last == .closed(reason: "shutdown") || last == .closed(reason: "daemonRestarted"))
        let boot = try #require(await restarted.value)
        #expect(boot != firstBoot)
        #expect(try await client.list().isEmpty)
        #expect(client.sessionID != nil)
    }
}
