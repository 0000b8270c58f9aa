import JSONCore
import Posix
import VMTestSupport

/// One raw connection to a real vmd for the session tests: numbered requests, and every
/// message read kept in arrival order (`received`), so a test can check seqs across a drop.
final class SessionWire {
    let client: SocketClient
    private var nextID = 0
    /// Every message read so far that was not a response taken by ``response(to:timeout:)``.
    private(set) var received: [JSONValue] = []

    init(path: String) throws {
        client = try SocketClient.connect(path: path)
    }

    /// Sends a request without waiting; its id.
    @discardableResult
    func start(_ method: String, _ params: JSONValue = [:]) throws -> Int {
        nextID += 1
        let request: JSONValue = ["jsonrpc": "2.0", "id": .integer(Int64(nextID)), "method": .string(method), "params": params]
        try client.sendLine(request.serialized)
        return nextID
    }

    /// Reads until the response with `id`; what comes before it is kept in `received`.
    func response(to id: Int, timeout: Duration = .seconds(10)) throws -> JSONValue {
        let deadline = Deadline(after: timeout)
        while true {
            let message = try client.readMessage(timeout: deadline.remaining)
            if message["method"] == nil, message["id"]?.intValue == id { return message }
            received.append(message)
        }
    }

    /// Sends a request and returns its whole response.
    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:], timeout: Duration = .seconds(10)) throws -> JSONValue {
        try response(to: try start(method, params), timeout: timeout)
    }

    /// The `result` of `method`; an error reply throws, quoting it.
    @discardableResult
    func result(_ method: String, _ params: JSONValue = [:]) throws -> JSONValue {
        let reply = try call(method, params)
        guard let result = reply["result"] else { throw DaemonProcessError("\(method) \(params.serialized) → \(reply.serialized)") }
        return result
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue) throws {
        let message: JSONValue = ["jsonrpc": "2.0", "method": .string(method), "params": params]
        try client.sendLine(message.serialized)
    }

    /// Reads (bounded) until a message satisfies `done`; returns it (it is kept too).
    @discardableResult
    func read(until done: (JSONValue) -> Bool, timeout: Duration = .seconds(20)) throws -> JSONValue {
        let deadline = Deadline(after: timeout)
        if let found = received.first(where: done) { return found }
        while true {
            let message = try client.readMessage(timeout: deadline.remaining)
            received.append(message)
            if done(message) { return message }
        }
    }

    /// Reads everything until the daemon closes the connection (bounded).
    func readUntilClosed(timeout: Duration = .seconds(20)) {
        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            guard let message = try? client.readMessage(timeout: deadline.remaining) else { return }
            received.append(message)
        }
    }

    /// The messages received so far that are notifications named `method`.
    func notifications(_ method: String) -> [JSONValue] {
        received.filter { $0["method"]?.stringValue == method }
    }

    func close() { client.close() }
}
