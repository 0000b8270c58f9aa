import JSONCore
import JSONRPC
import Posix
import Synchronization
import Testing
import VMTestSupport
import VMClient
import VMProtocol

/// The client's machinery against a scripted daemon: reply matching, typed errors, ordering
/// of subscription values, end of sequences, unaddressed errors and reconnection.
@Suite("VMClient against a scripted daemon")
struct VMClientFakeDaemonTests {
    /// A private directory with a short path (sun_path holds 107 bytes), and the socket in it.
    private static func socketPath() throws -> (directory: TemporarySocketDirectory, socket: String) {
        let directory = try TemporarySocketDirectory()
        return (directory, directory.socketPath)
    }

    private static func startCounterDaemon(bootID: String = "boot-1") throws -> (FakeDaemon, TemporarySocketDirectory, String) {
        let (directory, socket) = try socketPath()
        let world = FakeCounterWorld(bootID: bootID, socket: socket)
        let daemon = try FakeDaemon(path: socket) { world.respond($0, $1, $2) }
        return (daemon, directory, socket)
    }

    @Test("connect reads daemon.info and typed helpers return typed values")
    func typedHelpers() async throws {
        let (daemon, directory, socket) = try Self.startCounterDaemon()
        defer { daemon.stop(); directory.remove() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        #expect(client.connectInfo?.bootId == "boot-1")
        #expect(client.connectInfo?.protocolLevel == 1)
        let created = try await client.create(type: "Counter", args: ["start": 5])
        #expect(created.instance == "counter-1")
        #expect(created.subscription == nil)
        try await client.send(instance: "counter-1", input: "increment", value: 2)
        #expect(try await client.get(instance: "counter-1", output: "count") == 7)
        let info = try await client.info()
        #expect(info.socket == socket)
    }

    @Test("a daemon error keeps its code, message and data, and names itself")
    func remoteErrorsAreTyped() async throws {
        let (daemon, directory, socket) = try Self.startCounterDaemon()
        defer { daemon.stop(); directory.remove() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        do {
            _ = try await client.get(instance: "nope", output: "count")
            Issue.record("vm.get of an unknown instance succeeded")
        } catch let error as VMClientError {
            let remote = try #require(error.remote)
            #expect(remote.code == -31002)
            #expect(remote.name == "unknownInstance")
            #expect(remote.data?["instance"] == "nope")
            #expect(remote.message.contains("vm.list"))
            #expect(!error.isUnreachable)
        }
    }

    @Test("a subscription yields the replay, then live values in seq order, and ends at vm.closed")
    func subscriptionEndsOnDestroy() async throws {
        let (daemon, directory, socket) = try Self.startCounterDaemon()
        defer { daemon.stop(); directory.remove() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        let created = try await client.create(type: "Counter", args: ["start": 1], subscribe: SubscribeOptions())
        let subscription = try #require(created.subscription)
        try await client.send(instance: created.instance, input: "increment")
        try await client.send(instance: created.instance, input: "increment", value: 10)
        try await client.destroy(created.instance)
        var events: [VMSubscriptionEvent] = []
        for try await event in subscription { events.append(event) }
        let values = events.compactMap { event -> (Int64, JSONValue, Bool)? in
            if case .output(let output) = event { return (output.seq, output.value, output.isReplay) }
            return nil
        }
        #expect(values.map(\.0) == [1, 2, 3])
        #expect(values.map(\.1) == [1, 2, 12])
        #expect(values.map(\.2) == [true, false, false])
        #expect(events.last == .closed(reason: "destroyed"))
    }

    @Test("connecting where nobody listens fails as unreachable")
    func cannotConnect() async throws {
        let (directory, socket) = try Self.socketPath()
        defer { directory.remove() }
        await #expect(throws: VMClientError.self) {
            _ = try await VMClient.connect(to: VMSocketLocation(path: socket))
        }
        do {
            _ = try await VMClient.connect(to: VMSocketLocation(path: socket))
        } catch let error as VMClientError {
            #expect(error.isUnreachable)
            guard case .cannotConnect(let path, _) = error else {
                Issue.record("expected cannotConnect, got \(error)")
                return
            }
            #expect(path == socket)
        }
    }

    @Test("an id-null error reaches the events stream, not a caller")
    func unaddressedErrorsAreEvents() async throws {
        let (directory, socket) = try Self.socketPath()
        let daemon = try FakeDaemon(path: socket) { method, _, id in
            if method == "vm.list" {
                return [FakeDaemon.failure(nil, code: -32700, name: "parseError", message: "Parse error."),
                        FakeDaemon.reply(id, ["instances": []])]
            }
            return [FakeDaemon.info(id, bootID: "b", socket: socket)]
        }
        defer { daemon.stop(); directory.remove() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        #expect(try await client.list().isEmpty)
        var iterator = client.events.makeAsyncIterator()
        let event = await iterator.next()
        guard case .unaddressedError(let error)? = event else {
            Issue.record("expected an unaddressed error, got \(String(describing: event))")
            return
        }
        #expect(error.name == "parseError")
    }

    @Test("a daemon of another protocol level is refused")
    func otherProtocolLevelIsRefused() async throws {
        let (directory, socket) = try Self.socketPath()
        let daemon = try FakeDaemon(path: socket) { _, _, id in
            [FakeDaemon.reply(id, ["version": "9", "protocol": 2, "bootId": "b", "pid": 1, "uptimeSeconds": 1,
                                   "instances": 0, "connections": 1, "limits": [:], "socket": .string(socket)])]
        }
        defer { daemon.stop(); directory.remove() }
        await #expect(throws: VMClientError.unsupportedProtocolLevel(2)) {
            _ = try await VMClient.connect(to: VMSocketLocation(path: socket))
        }
    }

    @Test("after the daemon restarts, a reconnecting client says so, with the new boot id, and works again")
    func reconnectsAfterRestart() async throws {
        let (first, directory, socket) = try Self.startCounterDaemon(bootID: "boot-1")
        defer { directory.remove() }
        let policy = VMReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100))
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket), options: .init(reconnect: policy))
        defer { client.close() }
        let created = try await client.create(type: "Counter", subscribe: SubscribeOptions())
        let subscription = try #require(created.subscription)

        first.stop()
        // The subscription ends by throwing: the connection is gone and nothing is re-created.
        await #expect(throws: VMClientError.self) {
            for try await _ in subscription {}
        }
        let second = try FakeDaemon(path: socket) { FakeCounterWorld(bootID: "boot-2", socket: socket).respond($0, $1, $2) }
        defer { second.stop() }

        var sawDisconnect = false
        var sawReconnecting = false
        var newBoot: String? = nil
        for await event in client.events {
            switch event {
            case .disconnected: sawDisconnect = true
            case .reconnecting: sawReconnecting = true
            case .reconnected(let bootID): newBoot = bootID
            default: break
            }
            if newBoot != nil { break }
        }
        #expect(sawDisconnect)
        #expect(sawReconnecting)
        #expect(newBoot == "boot-2")
        #expect(client.isConnected)
        let info = try await client.info()
        #expect(info.bootId == "boot-2")
    }

    @Test("cancelling the task that iterates a subscription unsubscribes it in the daemon")
    func cancelledConsumerUnsubscribes() async throws {
        let (directory, socket) = try Self.socketPath()
        let world = FakeCounterWorld(bootID: "b", socket: socket)
        let received = Mutex<[String]>([])
        let daemon = try FakeDaemon(path: socket) { method, params, id in
            received.withLock { $0.append(method) }
            return world.respond(method, params, id)
        }
        defer { daemon.stop(); directory.remove() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        let created = try await client.create(type: "Counter", subscribe: SubscribeOptions())
        let subscription = try #require(created.subscription)
        let consumer = Task {
            var count = 0
            for try await _ in subscription { count += 1 }
            return count
        }
        consumer.cancel()
        _ = try? await consumer.value
        // Bounded wait for the fire-and-forget notification to reach the daemon.
        var unsubscribed = false
        for _ in 0..<500 where !unsubscribed {
            unsubscribed = received.withLock { $0.contains("vm.unsubscribe") }
            if !unsubscribed { _ = try? await client.call("daemon.info") }  // a round trip, not a sleep
        }
        #expect(unsubscribed)
    }

    @Test("the blocking connection keeps notifications that arrive before a reply, in order")
    func blockingConnectionQueuesNotifications() throws {
        let (daemon, directory, socket) = try Self.startCounterDaemon()
        defer { daemon.stop(); directory.remove() }
        let connection = try VMBlockingConnection.connect(to: VMSocketLocation(path: socket))
        defer { connection.close() }
        let created = try connection.call("vm.create", ["type": "Counter", "subscribe": [:]])
        #expect(created["subscription"] == "sub-1")
        try connection.call("vm.send", ["instance": "counter-1", "input": "increment"])
        let first = try #require(try connection.nextNotification(timeout: .seconds(5)))
        let second = try #require(try connection.nextNotification(timeout: .seconds(5)))
        #expect(first.params["seq"] == 1)
        #expect(first.params["replay"] == true)
        #expect(second.params["seq"] == 2)
        #expect(try connection.nextNotification(timeout: .milliseconds(20)) == nil)
        do {
            try connection.call("vm.get", ["instance": "x", "output": "count"])
            Issue.record("vm.get of an unknown instance succeeded")
        } catch {
            #expect(error.remote?.name == "unknownInstance")
        }
    }
}
