import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import VMProtocol
import VMServer
import ViewModelKit

/// A server on virtual time with the test view models, and clients talking to it in-process.
final class ServerFixture {
    let scheduler: TestScheduler
    let host: ViewModelHost
    let server: Server
    /// What the server logged and asked for.
    let log: EventLog
    private var nextConnection: UInt64 = 0
    private let limits: VMLimits
    static let daemonUID: UInt32 = 1000

    init(limits: VMLimits = VMLimits(), slowClient: SlowClientMode = .coalesce, registry: ViewModelRegistry? = nil) throws {
        scheduler = TestScheduler()
        self.limits = limits
        let log = EventLog()
        host = ViewModelHost(registry: try registry ?? testRegistry(), scheduler: scheduler)
        let identity = ServerIdentity(
            version: "0.1.0-test", bootId: "0123456789abcdef0123456789abcdef", pid: 4242,
            startedAt: scheduler.now, socketPath: "/tmp/vmd-test.sock", slowClient: slowClient, uid: Self.daemonUID)
        server = Server(
            host: host, scheduler: scheduler, limits: limits, identity: identity,
            log: { event in log.events.append(event) },
            requestShutdown: { log.shutdownRequests += 1 })
        self.log = log
    }

    /// Opens a connection from a peer with `uid` (the daemon's own by default).
    func connect(uid: UInt32 = ServerFixture.daemonUID) -> TestClient {
        nextConnection += 1
        let client = TestClient(id: ConnectionID(nextConnection), fixture: self)
        client.sink.capacity = limits.maxOutboundBytes
        server.connectionOpened(client.id, peer: PeerIdentity(pid: 100, uid: uid, gid: uid), sink: client.sink)
        return client
    }
}

/// One connection: write frames, read what the server wrote.
final class TestClient {
    let id: ConnectionID
    let sink = MemorySink()
    let fixture: ServerFixture
    private var nextID: Int64 = 0

    init(id: ConnectionID, fixture: ServerFixture) {
        self.id = id
        self.fixture = fixture
    }

    /// Writes one raw frame.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { fixture.server.frameReceived(UnsafeRawBufferPointer($0), on: id) }
    }

    /// Sends a request with the next integer id; returns the id.
    @discardableResult
    func request(_ method: String, _ params: JSONValue? = nil) -> Int64 {
        nextID += 1
        var message: JSONObject = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method)]
        if let params { message["params"] = params }
        write(JSONValue.object(message).encodedString())
        return nextID
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        write(JSONValue.object(message).encodedString())
    }

    /// Sends a request and returns its response's `result` (failing the test on an error);
    /// notifications written meanwhile stay readable with ``take()``.
    func call(_ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
        let id = request(method, params)
        guard let response = response(to: id) else {
            Issue.record("no response to \(method)", sourceLocation: sourceLocation)
            return .null
        }
        if let error = response["error"] {
            Issue.record("\(method) failed: \(error)", sourceLocation: sourceLocation)
            return .null
        }
        return response["result"] ?? .null
    }

    /// Sends a request that must fail; returns its `error`.
    func callFailing(_ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
        let id = request(method, params)
        guard let error = response(to: id)?["error"] else {
            Issue.record("\(method) did not fail", sourceLocation: sourceLocation)
            return .null
        }
        return error
    }

    /// The response with integer id `id` among the messages so far; the others stay for ``take()``.
    func response(to id: Int64) -> JSONValue? {
        var found: JSONValue?
        let earlier = pendingMessages
        pendingMessages = []
        for message in earlier + sink.take() {
            if found == nil, message["id"] == .integer(id), message["method"] == nil {
                found = message
            } else {
                pendingMessages.append(message)
            }
        }
        return found
    }

    private var pendingMessages: [JSONValue] = []

    /// Every message received since the last `take`, in order (responses fetched by `call`
    /// are left out).
    func take() -> [JSONValue] {
        let all = pendingMessages + sink.take()
        pendingMessages = []
        return all
    }

    /// The messages received so far that are notifications of `method`, removed.
    func notifications(_ method: String) -> [JSONValue] {
        take().filter { $0["method"] == .string(method) }
    }

    func close() {
        fixture.server.connectionClosed(id)
    }
}

/// What a fixture's server logged and asked of the daemon.
final class EventLog {
    var events: [ServerLogEvent] = []
    var shutdownRequests = 0
}

/// Parses test JSON text; a typo in a test fails loudly.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        Issue.record("bad test JSON \(text): \(error)", sourceLocation: sourceLocation)
        return .null
    }
}
