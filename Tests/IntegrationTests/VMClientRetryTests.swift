import JSONCore
import JSONRPC
import Posix
import Synchronization
import Testing
import VMTestSupport
import VMClient

/// The Swift client retries an unacknowledged keyed send after it
/// reconnects, with the same key, on an instance made again.
@Suite("VMClient retries an unanswered keyed execute after reconnecting")
struct VMClientRetryTests {
    /// What the scripted daemons saw: `vm.execute` values and `vm.create` calls, in order.
    final class Seen: Sendable {
        let executeValues = Mutex<[JSONValue]>([])
        let creates = Mutex(0)
    }

    /// A daemon that creates `SendList`s and answers `vm.execute` only when `answers`.
    static func daemon(at socket: String, bootID: String, answers: Bool, seen: Seen) throws -> FakeDaemon {
        try FakeDaemon(path: socket) { method, params, id in
            switch method {
            case "daemon.info":
                return [FakeDaemon.info(id, bootID: bootID, socket: socket)]
            case "vm.create":
                let number = seen.creates.withLock { count in
                    count += 1
                    return count
                }
                return [FakeDaemon.reply(id, ["instance": .string("sendlist-\(number)"), "type": "SendList", "scope": "daemon"])]
            case "vm.send":
                return [FakeDaemon.reply(id, .null)]
            case "vm.execute":
                seen.executeValues.withLock { $0.append(params["value"] ?? .null) }
                // The first daemon "dies" before answering: it says nothing.
                return answers ? [FakeDaemon.reply(id, ["value": ["uploadId": 7, "type": "SendReceipt", "instance": "sendreceipt-1"]])] : []
            default:
                return [FakeDaemon.failure(id, code: -32601, name: "methodNotFound", message: "no \(method)")]
            }
        }
    }

    @Test("a send whose answer never came is sent again, with its key, once the client has reconnected")
    func retriesWithTheSameKey() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let seen = Seen()
        let first = try Self.daemon(at: socket, bootID: "boot-1", answers: false, seen: seen)
        let policy = VMReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100))
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket), options: .init(reconnect: policy))
        defer { client.close() }

        // The first daemon goes away (as after kill -9) once it has seen the execute; a new one
        // starts on the same path.
        let restart = Task.detached {
            while seen.executeValues.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
            first.stop()
            return try Self.daemon(at: socket, bootID: "boot-2", answers: true, seen: seen)
        }
        let value: JSONValue = ["key": "k-42"]
        let result = try await client.executeRetrying(action: "send", value: value) { client in
            let list = try await client.create(type: "SendList").instance
            try await client.send(instance: list, input: "addRecipient", value: "ada@example.com")
            try await client.send(instance: list, input: "message", value: "Hello")
            return list
        }
        let second = try await restart.value
        defer { second.stop() }
        #expect(result["uploadId"] == 7)
        #expect(seen.executeValues.withLock { $0 } == [value, value])
        #expect(seen.creates.withLock { $0 } == 2, "the instance is made again on the restarted daemon")
    }

    @Test("an unknownInstance answer (the instance went away: nothing ran) is prepared again and retried")
    func unknownInstanceIsRetried() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let executes = Mutex(0)
        let daemon = try FakeDaemon(path: socket) { method, _, id in
            switch method {
            case "daemon.info": return [FakeDaemon.info(id, bootID: "b", socket: socket)]
            default:
                let count = executes.withLock { count in
                    count += 1
                    return count
                }
                return count == 1
                    ? [FakeDaemon.failure(id, code: -31002, name: "unknownInstance", message: "No instance.")]
                    : [FakeDaemon.reply(id, ["value": ["uploadId": 3]])]
            }
        }
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        let prepared = Mutex(0)
        let result = try await client.executeRetrying(action: "send", value: ["key": "k"]) { _ in
            prepared.withLock { $0 += 1 }
            return "sendlist-1"
        }
        #expect(result["uploadId"] == 3)
        #expect(prepared.withLock { $0 } == 2)
    }

    @Test("an error answer is not retried")
    func errorAnswerIsFinal() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let calls = Mutex(0)
        let daemon = try FakeDaemon(path: socket) { method, _, id in
            switch method {
            case "daemon.info": return [FakeDaemon.info(id, bootID: "b", socket: socket)]
            default:
                calls.withLock { $0 += 1 }
                return [FakeDaemon.failure(id, code: -31008, name: "actionFailed", message: "The store is down.")]
            }
        }
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        let error = await #expect(throws: VMClientError.self) {
            try await client.executeRetrying(action: "send", value: ["key": "k"]) { _ in "sendlist-1" }
        }
        #expect(error?.remote?.name == "actionFailed")
        #expect(calls.withLock { $0 } == 1)
    }
}
