import JSONCore
import JSONRPC
import Posix
import Synchronization

/// A scripted stand-in for vmd, for the client's own tests: it answers each request with the
/// lines its `respond` closure returns (notifications first, then the reply, like vmd's O4),
/// so tests can produce exactly the wire situations they need (an `id: null` error, a
/// dropped connection, a restart at the same path) without depending on the daemon.
///
/// One accept thread and one thread per connection, blocking I/O with short poll timeouts
/// so that ``stop()`` is noticed; test code only.
final class FakeDaemon: Sendable {
    typealias Respond = @Sendable (_ method: String, _ params: JSONValue, _ id: RequestID?) -> [JSONValue]

    let path: String
    private let listener: UnixListener
    private let respond: Respond
    private let stopping = Atomic<Bool>(false)
    private let threads = Mutex<[PosixThread]>([])
    private let open = Mutex<[FileDescriptor]>([])

    init(path: String, respond: @escaping Respond) throws {
        self.path = path
        self.respond = respond
        listener = try UnixListener.bind(to: try UnixSocketAddress(path: path))
        let acceptor = try PosixThread.spawn { [self] in acceptLoop() }
        threads.withLock { $0.append(acceptor) }
    }

    /// Closes every connection and the listener (removing the socket file), then waits for
    /// the threads.
    func stop() {
        stopping.store(true, ordering: .releasing)
        for connection in open.withLock({ $0 }) { try? UnixSocket.shutdownWriting(connection) }
        let all = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in all { thread.join() }
        try? listener.close()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func acceptLoop() {
        while !isStopping {
            guard (try? listener.descriptor.wait(for: .readable, timeout: .milliseconds(20)))?.contains(.readable) == true,
                  let accepted = try? listener.accept() else { continue }
            open.withLock { $0.append(accepted) }
            if let thread = try? PosixThread.spawn({ [self] in serve(accepted) }) {
                threads.withLock { $0.append(thread) }
            }
        }
    }

    private func serve(_ socket: FileDescriptor) {
        var framer = LineFramer()
        defer { try? socket.close() }
        while !isStopping {
            guard let ready = try? socket.wait(for: .readable, timeout: .milliseconds(20)), !ready.isEmpty else { continue }
            guard let bytes = try? socket.read(upTo: 65536) else { continue }
            if bytes.isEmpty { return }
            framer.append(contentsOf: bytes)
            while let frame = try? framer.nextFrame() {
                guard case .single(.message(let message)) = JSONRPCDecoder.decode(frame) else { continue }
                var out: [UInt8] = []
                switch message {
                case .request(let request):
                    for line in respond(request.method, request.params ?? [:], request.id) {
                        out.append(contentsOf: line.encodedBytes())
                        out.append(UInt8(ascii: "\n"))
                    }
                case .notification(let notification):
                    for line in respond(notification.method, notification.params ?? [:], nil) {
                        out.append(contentsOf: line.encodedBytes())
                        out.append(UInt8(ascii: "\n"))
                    }
                case .response:
                    continue
                }
                if !out.isEmpty { try? socket.writeAll(out) }
            }
        }
    }

    // MARK: - Building messages

    static func reply(_ id: RequestID?, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.jsonValue ?? .null, "result": result]
    }

    static func failure(_ id: RequestID?, code: Int64, name: String, message: String, extra: JSONObject = [:]) -> JSONValue {
        var data: JSONObject = ["name": .string(name)]
        for (key, value) in extra { data[key] = value }
        return ["jsonrpc": "2.0", "id": id?.jsonValue ?? .null,
                "error": ["code": .integer(code), "message": .string(message), "data": .object(data)]]
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }

    static func info(_ id: RequestID?, bootID: String, socket: String) -> JSONValue {
        reply(id, ["version": "0.0.0-fake", "protocol": 1, "bootId": .string(bootID), "pid": 1,
                   "uptimeSeconds": 0.5, "instances": 0, "connections": 1,
                   "limits": ["maxFrameBytes": 1048576], "socket": .string(socket), "slowClient": "coalesce"])
    }
}

/// A one-counter world the fake daemon serves: `vm.create` (with `subscribe`), `vm.send`
/// `increment`, `vm.get`, `vm.subscribe`, `vm.destroy`, `daemon.info`, and vmd's errors for
/// anything else, so the client's typed helpers meet realistic wire shapes.
final class FakeCounterWorld: Sendable {
    private struct State {
        var count: Int64 = 0
        var alive = false
        var subscriptions: [String] = []
        var seqs: [String: Int64] = [:]
        var nextSubscription = 1
    }

    private let state = Mutex(State())
    let bootID: String
    let socket: String

    init(bootID: String, socket: String) {
        self.bootID = bootID
        self.socket = socket
    }

    func respond(_ method: String, _ params: JSONValue, _ id: RequestID?) -> [JSONValue] {
        state.withLock { state in
            func output(_ subscription: String, replay: Bool) -> JSONValue {
                state.seqs[subscription, default: 0] += 1
                var params: JSONObject = ["subscription": .string(subscription), "instance": "counter-1", "output": "count",
                                          "value": .integer(state.count), "seq": .integer(state.seqs[subscription] ?? 0)]
                if replay { params["replay"] = true }
                return FakeDaemon.notification("vm.output", .object(params))
            }
            func openSubscription() -> String {
                defer { state.nextSubscription += 1 }
                let id = "sub-\(state.nextSubscription)"
                state.subscriptions.append(id)
                return id
            }
            let unknownInstance = FakeDaemon.failure(
                id, code: -31002, name: "unknownInstance",
                message: "No instance \"\(params["instance"]?.stringValue ?? "")\"; vm.list shows the live instances.",
                extra: ["instance": params["instance"] ?? .null])
            switch method {
            case "daemon.info":
                return [FakeDaemon.info(id, bootID: bootID, socket: socket)]
            case "vm.create":
                state.alive = true
                state.count = params["args"]?["start"]?.int64Value ?? 0
                guard params["subscribe"] != nil else {
                    return [FakeDaemon.reply(id, ["instance": "counter-1", "type": "Counter", "scope": "daemon"])]
                }
                let subscription = openSubscription()
                return [FakeDaemon.reply(id, ["instance": "counter-1", "type": "Counter", "scope": "daemon",
                                              "subscription": .string(subscription)]),
                        output(subscription, replay: true)]
            case "vm.subscribe":
                guard state.alive, params["instance"] == "counter-1" else { return [unknownInstance] }
                let subscription = openSubscription()
                return [FakeDaemon.reply(id, ["subscription": .string(subscription)]), output(subscription, replay: true)]
            case "vm.send":
                guard state.alive, params["instance"] == "counter-1" else { return [unknownInstance] }
                state.count += params["value"]?.int64Value ?? 1
                let outputs = state.subscriptions.map { output($0, replay: false) }
                return outputs + (id == nil ? [] : [FakeDaemon.reply(id, .null)])
            case "vm.get":
                guard state.alive, params["instance"] == "counter-1" else { return [unknownInstance] }
                return [FakeDaemon.reply(id, ["value": .integer(state.count)])]
            case "vm.destroy":
                guard state.alive, params["instance"] == "counter-1" else { return [unknownInstance] }
                state.alive = false
                let closed = state.subscriptions.map { subscription in
                    FakeDaemon.notification("vm.closed", ["instance": "counter-1", "subscription": .string(subscription),
                                                          "reason": "destroyed"])
                }
                state.subscriptions = []
                return closed + [FakeDaemon.reply(id, ["destroyed": true])]
            default:
                return [FakeDaemon.failure(id, code: -32601, name: "methodNotFound",
                                           message: "Unknown method \"\(method)\"; rpc.discover lists every method.",
                                           extra: ["method": .string(method)])]
            }
        }
    }
}
