import JSONCore
import VMProtocol

/// A JSON-RPC conversation with vmd's server for tests, the same over every transport:
/// requests numbered and matched to their replies by id, every other message kept in arrival
/// order for the test to take.
///
/// Open one from an ``RPCEndpoint`` (``RPCTransport/start(arguments:)``), so one test body runs
/// against the in-memory server and the real daemon alike:
///
/// ```swift
/// @Test(arguments: RPCTransport.allCases)
/// func counts(over transport: RPCTransport) async throws {
///     let vmd = try await transport.start()
///     defer { vmd.stop() }
///     let session = try await vmd.connect()
///     let created = try await session.result("vm.create", ["type": "Counter"])
///     …
/// }
/// ```
///
/// Every wait is bounded, by ``Waiting/defaultTimeout`` unless the call says otherwise. Every
/// message read is checked on the way in: JSON-RPC 2.0, and each error's `code` agrees with
/// its `data.name` (PROTOCOL.md section 10), inside batch responses too; a message that fails
/// throws ``RPCSessionError/malformed(_:)``.
///
/// A session opened with `keepingEverythingRead` also keeps a second, untouched record of
/// every message read (``everythingRead``), for checks over a whole conversation: the seqs of
/// a subscription across a dropped connection and its resume, say.
package final class RPCSession {
    /// The transport under this session.
    package let transport: RPCTransport
    /// The connection itself, for what only a raw channel can do.
    package let channel: any RPCChannel
    private var lastID: Int64 = 0
    /// Messages received and not yet taken (notifications, and replies nobody asked for yet),
    /// oldest first.
    package private(set) var queued: [JSONValue] = []
    /// Whether ``everythingRead`` records what is read.
    package let keepsEverythingRead: Bool
    /// Every message read so far, in arrival order, whether taken or still queued: replies,
    /// notifications and batches alike. Empty unless the session was opened
    /// `keepingEverythingRead`.
    package private(set) var everythingRead: [JSONValue] = []

    /// A session on `channel`; with `keepingEverythingRead`, every message read is also kept
    /// in ``everythingRead``.
    package init(channel: any RPCChannel, transport: RPCTransport, keepingEverythingRead: Bool = false) {
        self.channel = channel
        self.transport = transport
        self.keepsEverythingRead = keepingEverythingRead
    }

    /// A session on a new connection to the daemon listening on `socketPath` (retrying, bounded,
    /// while it starts), for a daemon a test started itself; `keepingEverythingRead` as in
    /// ``init(channel:transport:keepingEverythingRead:)``.
    package convenience init(socketPath: String, keepingEverythingRead: Bool = false) throws {
        self.init(channel: try SocketChannel(path: socketPath), transport: .socket, keepingEverythingRead: keepingEverythingRead)
    }

    /// Hangs up.
    package func close() { channel.close() }

    // MARK: Writing

    /// Writes `frame` as it is (a raw line: malformed JSON, a batch, an id of the test's own).
    /// Over a socket it goes out in one write with a newline after it, so a `frame` of several
    /// lines is a burst of frames.
    package func send(_ frame: String) async throws {
        try await channel.send(frame)
    }

    /// Sends a request with the next integer id and returns the id, without waiting.
    @discardableResult
    package func request(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        lastID += 1
        let id = JSONValue.integer(lastID)
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        try await send(JSONValue.object(message).encodedString())
        return id
    }

    /// Sends a notification (no reply comes).
    package func notify(_ method: String, _ params: JSONValue? = nil) async throws {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        try await send(JSONValue.object(message).encodedString())
    }

    // MARK: Replies

    /// The whole reply to `method` (a `result` or an `error`); notifications that arrive first
    /// stay queued.
    @discardableResult
    package func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        let id = try await request(method, params)
        return try await response(to: id, timeout: timeout)
    }

    /// The `result` of `method`; an error reply throws ``RPCSessionError/errorReply(_:)``, quoting it.
    @discardableResult
    package func result(_ method: String, _ params: JSONValue? = nil, timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        let reply = try await call(method, params, timeout: timeout)
        guard let result = reply["result"] else {
            throw RPCSessionError.errorReply("\(method) \((params ?? .null).encodedString()) → \(reply.encodedString())")
        }
        return result
    }

    /// The `error` of `method`'s reply; a success throws ``RPCSessionError/missing(_:)``, quoting it.
    @discardableResult
    package func failure(_ method: String, _ params: JSONValue? = nil, timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        let reply = try await call(method, params, timeout: timeout)
        guard let error = reply["error"] else {
            throw RPCSessionError.missing("\(method) \((params ?? .null).encodedString()) did not fail: \(reply.encodedString())")
        }
        return error
    }

    /// The reply whose id is `id` (a single response, not a notification), waiting at most
    /// `timeout`; everything read before it stays queued.
    package func response(to id: JSONValue, timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        try await take(timeout: timeout, waitingFor: "the reply to id \(id.encodedString())") {
            $0["id"] == id && $0["method"] == nil
        }
    }

    // MARK: Other messages

    /// The oldest message not yet taken, of any kind (waiting at most `timeout` when none is queued).
    package func nextMessage(timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        if !queued.isEmpty { return queued.removeFirst() }
        return try await receive(timeout: timeout)
    }

    /// The first notification of `method` not yet taken (waiting at most `timeout`); the
    /// messages before it stay queued.
    package func nextNotification(_ method: String, timeout: Duration = Waiting.defaultTimeout) async throws -> JSONValue {
        try await take(timeout: timeout, waitingFor: "a \(method) notification") {
            $0["method"]?.stringValue == method
        }
    }

    /// The first message not yet taken that satisfies `isWanted` (waiting at most `timeout`);
    /// the messages before it stay queued.
    @discardableResult
    package func nextMessage(timeout: Duration = Waiting.defaultTimeout, where isWanted: (JSONValue) -> Bool) async throws -> JSONValue {
        try await take(timeout: timeout, waitingFor: "a message the test wanted", isWanted)
    }

    /// The notifications named `method` in ``everythingRead``, oldest first.
    package func notificationsRead(_ method: String) -> [JSONValue] {
        everythingRead.filter { $0["method"]?.stringValue == method }
    }

    /// Reads until the server closes the connection, queuing what arrives: true once it is
    /// closed, false if `timeout` passes first.
    package func waitForClose(timeout: Duration = Waiting.defaultTimeout) async throws -> Bool {
        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            do {
                queued.append(try await receive(timeout: deadline.remaining))
            } catch RPCSessionError.closed {
                return true
            } catch RPCSessionError.timedOut {
                return false
            }
        }
        return false
    }

    /// Reads until at least `count` messages are queued (waiting at most `timeout` in all).
    package func waitForQueued(_ count: Int, timeout: Duration = Waiting.defaultTimeout) async throws {
        let deadline = Deadline(after: timeout)
        while queued.count < count {
            queued.append(try await receive(timeout: deadline.remaining))
        }
    }

    /// Takes the first `count` queued messages (waiting, bounded, for them to arrive).
    package func take(_ count: Int, timeout: Duration = Waiting.defaultTimeout) async throws -> [JSONValue] {
        try await waitForQueued(count, timeout: timeout)
        defer { queued.removeFirst(count) }
        return Array(queued.prefix(count))
    }

    /// Takes every queued message and everything already received, without waiting: for the
    /// in-memory server, all it has written; over a socket, what has arrived so far. A
    /// connection the server closed ends the list too.
    package func takeAvailable() async throws -> [JSONValue] {
        while true {
            do {
                queued.append(try await receive(timeout: .zero))
            } catch RPCSessionError.timedOut, RPCSessionError.closed {
                return takeQueued()
            }
        }
    }

    /// Takes every queued message; reads nothing. After a request's reply, these are the
    /// notifications the server wrote before it.
    package func takeQueued() -> [JSONValue] {
        defer { queued.removeAll() }
        return queued
    }

    /// Reads (bounded) until a message satisfies `isWanted`; takes it and everything queued
    /// before it, oldest first.
    package func takeThrough(timeout: Duration = Waiting.defaultTimeout, _ isWanted: (JSONValue) -> Bool) async throws -> [JSONValue] {
        let deadline = Deadline(after: timeout)
        var index = 0
        while true {
            while index < queued.count {
                if isWanted(queued[index]) {
                    defer { queued.removeFirst(index + 1) }
                    return Array(queued.prefix(index + 1))
                }
                index += 1
            }
            queued.append(try await receive(timeout: deadline.remaining))
        }
    }

    /// The channel's next message, checked (see the type's description).
    private func receive(timeout: Duration) async throws -> JSONValue {
        let message = try await channel.receive(timeout: timeout)
        for single in message.arrayValue ?? [message] {
            if let problem = Self.problem(in: single) {
                throw RPCSessionError.malformed("\(problem): \(single.encodedString())")
            }
        }
        if keepsEverythingRead { everythingRead.append(message) }
        return message
    }

    /// What is wrong with one (non-batch) message, if anything.
    private static func problem(in message: JSONValue) -> String? {
        guard message["jsonrpc"] == "2.0" else { return "not JSON-RPC 2.0" }
        guard let error = message["error"] ?? message["params"]?["error"] else { return nil }
        let code = VMErrorCode(number: error["code"]?.intValue ?? 0)
        guard let name = code?.name, error["data"]?["name"]?.stringValue == name else { return "error code and data.name disagree" }
        guard error["message"]?.stringValue?.isEmpty == false else { return "error without a message" }
        return nil
    }

    /// Reads until a message satisfies `isWanted` and takes that one alone.
    private func take(timeout: Duration, waitingFor what: String, _ isWanted: (JSONValue) -> Bool) async throws -> JSONValue {
        if let index = queued.firstIndex(where: isWanted) { return queued.remove(at: index) }
        let deadline = Deadline(after: timeout)
        while true {
            let message: JSONValue
            do {
                message = try await receive(timeout: deadline.remaining)
            } catch RPCSessionError.timedOut {
                throw RPCSessionError.timedOut("timed out waiting for \(what); queued: \(queued.map { $0.encodedString() })")
            }
            if isWanted(message) { return message }
            queued.append(message)
        }
    }
}
