import JSONCore
import Posix
import ReactiveTesting
import Testing
import VMClient
import VMProtocol
import VMTestSupport

/// VMClient against the real vmd: typed helpers, subscriptions, typed errors, vm.error
/// events, monitors, cancellation, and reconnecting after a daemon restart.
@Suite("VMClient against vmd")
struct VMClientTests {
    @Test("typed helpers cover the contract: info, types, create, send, get, execute, list, destroy")
    func typedHelpers() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client

        let info = try await client.info()
        #expect(info.protocolLevel == 1)
        #expect(info.socket == connected.directory.socketPath)
        #expect(info.bootId == client.connectInfo?.bootId)
        #expect(info.limits.maxFrameBytes > 0)

        let counter = try #require(try await client.types("Counter").first)
        #expect(counter.name == "Counter")
        #expect(counter.outputs.first { $0.name == "count" }?.isState == true)
        #expect(counter.actions.map(\.name) == ["reset"])
        let all = try await client.types()
        #expect(all.contains { $0.name == "Login" })

        let created = try await client.create(type: "Counter", id: "c1", args: ["start": 5])
        #expect(created.instance == "c1")
        #expect(created.scope == .daemon)
        try await client.send(instance: "c1", input: "increment", value: 2)
        #expect(try await client.get(instance: "c1", output: "count") == 7)
        #expect(try await client.execute(instance: "c1", action: "reset") == 0)
        let listed = try await client.list()
        #expect(listed.map(\.instance) == ["c1"])
        #expect(listed.first?.type == "Counter")
        try await client.destroy("c1")
        #expect(try await client.list().isEmpty)
        let document = try await client.discover()
        #expect(document["openrpc"] != nil)
    }

    @Test("a subscription yields replay then live values, and ends with vm.closed on destroy")
    func subscriptionEndsOnDestroy() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        let created = try await client.create(type: "Counter", args: ["start": 1], subscribe: SubscribeOptions())
        let subscription = try #require(created.subscription)
        try await client.send(instance: created.instance, input: "increment")
        try await client.send(instance: created.instance, input: "set", value: 9)
        try await client.destroy(created.instance)
        var events: [VMSubscriptionEvent] = []
        for try await event in subscription { events.append(event) }
        let outputs = events.compactMap { event -> VMOutputEvent? in
            if case .output(let output) = event { return output }
            return nil
        }
        #expect(outputs.map(\.value) == [1, 2, 9])
        #expect(outputs.map(\.seq) == [1, 2, 3])
        #expect(outputs.map(\.isReplay) == [true, false, false])
        #expect(events.last == .closed(reason: "destroyed"))

        let other = try await client.create(type: "Counter", id: "c2")
        _ = other
        let watched = try await client.subscribe(instance: "c2", options: SubscribeOptions(outputs: ["count"]))
        try await client.unsubscribe(watched)
        var afterUnsubscribe: [VMSubscriptionEvent] = []
        for try await event in watched { afterUnsubscribe.append(event) }
        #expect(afterUnsubscribe.allSatisfy { if case .output(let value) = $0 { value.isReplay } else { false } })
    }

    @Test("errors are typed: code, message and data survive")
    func errorsAreTyped() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        _ = try await client.create(type: "Counter", id: "c1")
        do {
            try await client.send(instance: "c1", input: "set", value: "ten")
            Issue.record("an invalid value was accepted")
        } catch let error as VMClientError {
            let remote = try #require(error.remote)
            #expect(remote.code == -31006)
            #expect(remote.name == "invalidValue")
            #expect(remote.data?["expected"] != nil)
        }
        do {
            _ = try await client.get(instance: "nobody", output: "count")
            Issue.record("an unknown instance answered")
        } catch let error as VMClientError {
            #expect(error.remote?.code == -31002)
            #expect(error.remote?.data?["instance"] == "nobody")
        }
    }

    @Test("a failed fire-and-forget send arrives as a vm.error event")
    func fireAndForgetFailureIsAnEvent() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        _ = try await client.create(type: "Counter", id: "c1")
        try client.sendAndForget(instance: "c1", input: "set", value: "ten")
        for await event in client.events {
            if case .notification(let method, let params) = event {
                #expect(method == "vm.error")
                #expect(params["error"]?["data"]?["name"] == "invalidValue")
                break
            }
        }
    }

    @Test("a monitor sees another connection's messages")
    func monitorSeesTraffic() async throws {
        let directory = try TemporarySocketDirectory()
        let daemon = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { daemon.stop(); directory.remove(["config"]) }
        let watcher = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath))
        defer { watcher.close() }
        let worker = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath))
        defer { worker.close() }
        let monitor = try await watcher.monitor()
        _ = try await worker.list()
        var seen: [VMMonitorMessage] = []
        for try await message in monitor {
            seen.append(message)
            if message.message["method"] == "vm.list" { break }
        }
        #expect(seen.last?.direction == "in")
        try await watcher.unmonitor(monitor)
    }

    @Test("cancelling the task of a slow execute cancels it in the daemon")
    func cancellingExecute() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        let login = try await client.create(type: "Login", id: "login", args: ["latencyMs": 10_000],
                                            subscribe: SubscribeOptions(outputs: ["isLoading"]))
        try await client.send(instance: "login", input: "email", value: "demo@example.com")
        try await client.send(instance: "login", input: "password", value: "secret")
        let running = Task { try await client.execute(instance: "login", action: "submit") }
        // Wait until the action runs (isLoading true), then cancel the task.
        for try await event in try #require(login.subscription) {
            if case .output(let output) = event, output.value == true { break }
        }
        running.cancel()
        do {
            _ = try await running.value
            Issue.record("a cancelled execute succeeded")
        } catch let error as VMClientError {
            #expect(error.remote?.code == -32800)
        }
    }

    @Test("after the daemon restarts, a reconnecting client reports the new boot and works again")
    func reconnectsAfterRestart() async throws {
        let directory = try TemporarySocketDirectory()
        let first = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { directory.remove(["config"]) }
        let policy = VMReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
        let client = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath), options: .init(reconnect: policy))
        defer { client.close() }
        let firstBoot = try #require(client.connectInfo?.bootId)
        let created = try await client.create(type: "Counter", subscribe: SubscribeOptions())
        first.stop()
        let second = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { second.stop() }
        // The subscription ends: vm.closed "shutdown" (the Counter is not durable), or, when the
        // connection went first, the reconnect finds it gone; nothing is re-created.
        var lastEvent: VMSubscriptionEvent? = nil
        for try await event in try #require(created.subscription) { lastEvent = event }
        #expect(lastEvent == .closed(reason: "shutdown") || lastEvent == .closed(reason: "daemonRestarted"))
        var newBoot: String? = nil
        for await event in client.events {
            if case .reconnected(let bootID) = event {
                newBoot = bootID
                break
            }
        }
        #expect(newBoot != nil)
        #expect(newBoot != firstBoot)
        #expect(try await client.list().isEmpty, "nothing is re-created")
    }
}

/// A vmd of the test's own on a temporary socket, and a VMClient connected to it (also for
/// GeneratedClientsTests).
struct ConnectedDaemon {
    let directory: TemporarySocketDirectory
    let daemon: DaemonProcess
    let client: VMClient

    static func start() async throws -> ConnectedDaemon {
        let directory = try TemporarySocketDirectory()
        let daemon = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        do {
            let client = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath))
            return ConnectedDaemon(directory: directory, daemon: daemon, client: client)
        } catch {
            daemon.stop()
            directory.remove(["config"])
            throw error
        }
    }

    func stop() {
        client.close()
        daemon.stop()
        directory.remove(["config"])
    }
}

/// VMClient on a patch subscription (Protocol/PROTOCOL.md, "Patches"): the application always sees whole values.
@Suite("VMClient with patches against vmd")
struct VMClientPatchTests {
    @Test("random edits of a TodoList: the materialized value equals vm.get after each, and patches did arrive")
    func randomEditsMaterialize() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        let seeds: [JSONValue] = (0..<40).map { ["title": .string("item \($0) with a title long enough to make patches pay")] }
        let created = try await client.create(
            type: "TodoList", id: "todo", args: ["items": .array(seeds)], subscribe: SubscribeOptions(outputs: ["items"], patches: true))
        let subscription = try #require(created.subscription)
        var iterator = subscription.makeAsyncIterator()
        var generator = SeededGenerator(seed: 14)
        var patches = 0
        var nextTitle = 0
        // The replay first.
        guard case .output(let first)? = try await iterator.next() else { Issue.record("no replay"); return }
        #expect(first.patch == nil)
        var view = first.value
        for step in 0..<120 {
            let ids = view.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            let id = ids.isEmpty ? 1 : ids[Int(generator.next() % UInt64(ids.count))]
            switch generator.next() % 6 {
            case 0 where !ids.isEmpty: try await client.send(instance: "todo", input: "remove", value: .integer(Int64(id)))
            case 1 where !ids.isEmpty: try await client.send(instance: "todo", input: "rename", value: ["id": .integer(Int64(id)), "title": .string("renamed \(step)")])
            case 2 where !ids.isEmpty: try await client.send(instance: "todo", input: "toggle", value: .integer(Int64(id)))
            default:
                nextTitle += 1
                try await client.send(instance: "todo", input: "add", value: .string("new item \(nextTitle)"))
            }
            guard case .output(let event)? = try await iterator.next() else { Issue.record("no output at step \(step)"); return }
            if event.patch != nil { patches += 1 }
            view = event.value
            #expect(view == (try await client.get(instance: "todo", output: "items")), "step \(step)")
        }
        #expect(patches > 100)
    }
}
