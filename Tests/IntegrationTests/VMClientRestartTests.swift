import JSONCore
import Posix
import Testing
import VMClient
import VMTestSupport
import VMProtocol

/// A reconnecting VMClient follows its instances across a restart of the real vmd (killed
/// with SIGKILL or stopped with SIGTERM, then started on the same socket and state
/// directory): `daemonRestarted`, then a durable instance's current values on the same
/// subscription; a non-durable one's subscription ends (`"shutdown"` at SIGTERM,
/// `"daemonRestarted"` when the reconnect finds it gone)
/// (Protocol/PROTOCOL.md, section 18, "After a restart").
@Suite("VMClient follows durable instances across a daemon restart", .offTheCooperativePool)
struct VMClientRestartTests {
    private static let policy = VMReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    /// The first `.daemonRestarted` on `events`, with its boot id.
    private static func restartEvent(_ events: AsyncStream<VMClientEvent>) async -> String?? {
        for await event in events {
            if case .daemonRestarted(let boot) = event { return .some(boot) }
        }
        return nil
    }

    /// Reads outputs until one whose value is `value`; returns it (nil when the sequence ends first).
    private static func output(
        _ iterator: inout VMSubscription.AsyncIterator, withValue value: JSONValue
    ) async throws -> VMOutputEvent? {
        while let event = try await iterator.next() {
            if case .output(let output) = event, output.value == value { return output }
            if case .closed = event { return nil }
        }
        return nil
    }

    /// A client with a durable Counter at 3 and a non-durable one, both watched; `stop` ends
    /// the first daemon, and a second starts on its socket and state directory.
    private static func followAcrossRestart(plainEndsWith reason: String, stop: (SocketDaemon) throws -> Void) async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let client = try await VMClient.connect(
            to: VMSocketLocation(path: first.socketPath), options: .init(reconnect: Self.policy))
        defer { client.close() }
        let firstBoot = try #require(client.connectInfo?.bootId)
        let visits = try await client.create(type: "Counter", id: "visits", subscribe: SubscribeOptions(outputs: ["count"]), durable: true)
        let plain = try await client.create(type: "Counter", id: "plain", subscribe: SubscribeOptions(outputs: ["count"]))
        let durableSubscription = try #require(visits.subscription)
        var durableValues = durableSubscription.makeAsyncIterator()
        var plainValues = try #require(plain.subscription).makeAsyncIterator()
        for _ in 0..<3 { try await client.send(instance: "visits", input: "increment") }
        #expect(try await output(&durableValues, withValue: 3) != nil)

        let restarted = Task { await restartEvent(client.events) }
        try stop(first)
        let second = try await SocketDaemon.start(socketPath: first.socketPath, stateDirectory: first.stateDirectory)
        defer { second.stop() }

        let boot = try #require(await restarted.value)
        #expect(boot != nil && boot != firstBoot)
        // The durable Counter: its current value, as a replay on the same sequence.
        let current = try #require(try await output(&durableValues, withValue: 3), "the durable subscription ended")
        #expect(current.isReplay)
        #expect(current.instance == "visits")
        // The non-durable one did not come back: its sequence says so and ends.
        var plainEvents: [VMSubscriptionEvent] = []
        while let event = try await plainValues.next() { plainEvents.append(event) }
        #expect(plainEvents.last == .closed(reason: reason))
        #expect(!plainEvents.contains { if case .output(let output) = $0 { !output.isReplay } else { false } })
        // The followed subscription is live, and unsubscribing it (by the id it was opened
        // under) ends it.
        try await client.send(instance: "visits", input: "increment")
        let live = try #require(try await output(&durableValues, withValue: 4))
        #expect(!live.isReplay)
        try await client.unsubscribe(durableSubscription)
        #expect(try await durableValues.next() == nil)
        #expect(try await client.list().map(\.instance) == ["visits"])
    }

    @Test("kill -9 and a start: daemonRestarted, the durable Counter's current value, the other one gone")
    func followsAcrossKill() async throws {
        try await Self.followAcrossRestart(plainEndsWith: "daemonRestarted") { daemon in
            try daemon.process.signal(.kill)
            #expect(try daemon.process.waitForExit(timeout: .seconds(5)) == .signaled(.kill))
        }
    }

    @Test("SIGTERM and a start: the durable Counter's shutdown close is held and it is followed; the other one ends with shutdown")
    func followsAcrossSigterm() async throws {
        try await Self.followAcrossRestart(plainEndsWith: "shutdown") { daemon in
            try daemon.process.signal(.terminate)
            #expect(try daemon.process.waitForExit(timeout: .seconds(10)) == .exited(0))
        }
    }
}
