import JSONCore
import Synchronization
import Testing
import VMClient
import VMProtocol
import VMTestSupport

/// ``VMClient`` remembers where each subscription's `vm.output` frames went
/// (OutputNameCache.swift); a change of its subscriptions makes it look again.
@Suite("VMClient routes values after its subscriptions change")
struct VMClientRoutingTests {
    @Test("an id the daemon gives again after the first subscription ended reaches the new subscription",
          .timeLimit(.minutes(1)))
    func reusedIDReachesTheNewSubscription() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let rounds = Mutex<Int64>(0)
        let daemon = try FakeDaemon(path: socket) { method, _, id in
            switch method {
            case "daemon.info":
                return [FakeDaemon.info(id, bootID: "boot-1", socket: socket)]
            case "vm.subscribe":
                let round = rounds.withLock { $0 += 1; return $0 }
                var lines = [FakeDaemon.reply(id, ["subscription": "sub-1"])]
                for seq in Int64(1)...3 {
                    lines.append(FakeDaemon.notification("vm.output", [
                        "subscription": "sub-1", "instance": "counter-1", "output": "count", "seq": .integer(seq),
                        "value": .integer(round * 10 + seq)]))
                }
                if round == 1 {
                    lines.append(FakeDaemon.notification("vm.closed", ["subscription": "sub-1", "instance": "counter-1", "reason": "destroyed"]))
                }
                return lines
            default:
                return [FakeDaemon.failure(id, code: -32601, name: "methodNotFound", message: "no \(method)")]
            }
        }
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        var first: [JSONValue] = []
        for try await event in try await client.subscribe(instance: "counter-1") {
            if case .output(let output) = event { first.append(output.value) }
        }
        #expect(first == [11, 12, 13])
        var second: [JSONValue] = []
        var iterator = try await client.subscribe(instance: "counter-1").makeAsyncIterator()
        while second.count < 3, case .output(let output)? = try await iterator.next() {
            #expect(output.subscription == "sub-1")
            second.append(output.value)
        }
        #expect(second == [21, 22, 23])
    }
}
