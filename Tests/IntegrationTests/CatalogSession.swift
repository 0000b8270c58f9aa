import JSONCore
import Posix
import VMTestSupport

/// A real `vmd` for catalog tests: its own socket directory and its own state directory
/// (`--state-dir`), so SendList's store file and upload ids belong to this test alone.
struct CatalogDaemon {
    let directory: TemporarySocketDirectory
    let socketPath: String
    let stateDirectory: String
    let process: DaemonProcess

    /// Starts vmd in a fresh directory, with the state directory inside it.
    init() throws {
        let directory = try TemporarySocketDirectory()
        try self.init(directory: directory, socketPath: directory.socketPath, stateDirectory: directory.file("state"))
    }

    /// Starts vmd on `socketPath` with `stateDirectory`; `directory` holds its log and config
    /// (a restarted daemon gets a directory of its own, so each log tells its own run).
    init(directory: TemporarySocketDirectory, socketPath: String, stateDirectory: String) throws {
        self.directory = directory
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
        process = try DaemonProcess.start(
            socketPath: socketPath, arguments: ["--state-dir", stateDirectory], directory: directory)
    }

    func session() throws -> CatalogSession { try CatalogSession(path: socketPath) }

    /// Stops vmd (if it still runs) and removes the directory, store file included.
    func stop() {
        process.stop()
        directory.remove(["state/sendlist-uploads.ndjson", "state", "config"])
    }
}

/// One client connection to vmd, as a program would hold it: requests numbered and matched to
/// their replies, notifications queued in arrival order, and a compact text form of each
/// notification so a test states an exact sequence (`"count=6 #2"`) in one `#expect`.
final class CatalogSession {
    let client: SocketClient
    private var nextID = 0
    /// Notifications read and not yet taken, oldest first.
    private var queued: [JSONValue] = []

    init(path: String) throws {
        client = try SocketClient.connect(path: path)
    }

    func close() { client.close() }

    // MARK: Requests

    /// Sends a request without waiting; its id, for ``response(to:timeout:)``.
    func start(_ method: String, _ params: JSONValue) throws -> Int {
        nextID += 1
        let request: JSONValue = ["jsonrpc": "2.0", "id": .integer(Int64(nextID)), "method": .string(method), "params": params]
        try client.sendLine(request.serialized)
        return nextID
    }

    /// Reads until the response with `id`, queueing the notifications that come first.
    func response(to id: Int, timeout: Duration = .seconds(5)) throws -> JSONValue {
        let deadline = Deadline(after: timeout)
        while true {
            let message = try client.readMessage(timeout: deadline.remaining)
            if message["id"]?.intValue == id, message["method"] == nil { return message }
            queued.append(message)
        }
    }

    /// The whole response to `method` (a result or an error).
    @discardableResult
    func call(_ method: String, _ params: JSONValue, timeout: Duration = .seconds(5)) throws -> JSONValue {
        try response(to: try start(method, params), timeout: timeout)
    }

    /// The `result` of `method`; an error reply throws, quoting it.
    @discardableResult
    func result(_ method: String, _ params: JSONValue, timeout: Duration = .seconds(5)) throws -> JSONValue {
        let reply = try call(method, params, timeout: timeout)
        guard let result = reply["result"] else { throw CatalogSessionError("\(method) \(params.serialized) → \(reply.serialized)") }
        return result
    }

    /// Sends a notification (no reply comes).
    func notify(_ method: String, _ params: JSONValue) throws {
        let message: JSONValue = ["jsonrpc": "2.0", "method": .string(method), "params": params]
        try client.sendLine(message.serialized)
    }

    // MARK: Conveniences for the catalog's methods

    /// `vm.create` of `type`, subscribed to every output (with replay) unless `subscribe` is
    /// false; the instance id and the subscription id.
    func create(_ type: String, args: JSONValue = [:], subscribe: Bool = true) throws -> (instance: String, subscription: String) {
        var params: JSONObject = ["type": .string(type), "args": args]
        if subscribe { params["subscribe"] = [:] }
        let result = try result("vm.create", .object(params))
        guard let instance = result["instance"]?.stringValue else { throw CatalogSessionError("vm.create \(type): no instance in \(result.serialized)") }
        return (instance, result["subscription"]?.stringValue ?? "")
    }

    /// `vm.send` as a request; the reply (null, or an error).
    @discardableResult
    func send(_ instance: String, _ input: String, _ value: JSONValue? = nil) throws -> JSONValue {
        var params: JSONObject = ["instance": .string(instance), "input": .string(input)]
        if let value { params["value"] = value }
        return try call("vm.send", .object(params))
    }

    /// `vm.get`'s value, or the error reply quoted in the thrown error.
    func get(_ instance: String, _ output: String) throws -> JSONValue {
        let result = try result("vm.get", ["instance": .string(instance), "output": .string(output)])
        guard let value = result["value"] else { throw CatalogSessionError("vm.get \(instance) \(output): no value in \(result.serialized)") }
        return value
    }

    /// The `vm.execute` request's params.
    static func execute(_ instance: String, _ action: String) -> JSONValue {
        ["instance": .string(instance), "action": .string(action)]
    }

    // MARK: Notifications

    /// Waits (bounded) until `count` notifications are queued, and takes exactly those,
    /// described relative to `subscription` (see ``describe(_:relativeTo:)``).
    func take(_ count: Int, of subscription: String, timeout: Duration = .seconds(5)) throws -> [String] {
        let deadline = Deadline(after: timeout)
        while queued.count < count {
            queued.append(try client.readMessage(timeout: deadline.remaining))
        }
        let taken = queued.prefix(count)
        queued.removeFirst(count)
        return taken.map { Self.describe($0, relativeTo: subscription) }
    }

    /// Takes every queued notification, described relative to `subscription`. After a
    /// request's reply, these are all the notifications the request caused (O4).
    func drain(_ subscription: String) -> [String] {
        defer { queued.removeAll() }
        return queued.map { Self.describe($0, relativeTo: subscription) }
    }

    /// Reads notifications (bounded) until one satisfies `isWanted`; takes it and everything
    /// before it, described relative to `subscription`.
    func takeThrough(of subscription: String, timeout: Duration = .seconds(5), _ isWanted: (JSONValue) -> Bool) throws -> [String] {
        let deadline = Deadline(after: timeout)
        var index = 0
        while true {
            while index < queued.count {
                if isWanted(queued[index]) {
                    let taken = queued.prefix(index + 1)
                    queued.removeFirst(index + 1)
                    return taken.map { Self.describe($0, relativeTo: subscription) }
                }
                index += 1
            }
            queued.append(try client.readMessage(timeout: deadline.remaining))
        }
    }

    /// A notification as one short line: a `vm.output` of `subscription` as
    /// `output=value #seq` (plus ` replay`), a `vm.closed` of it as `closed reason`; anything
    /// else (another subscription's values, `vm.error`, ...) with its method and params in
    /// full, so an unexpected notification shows up in a failed expectation as itself.
    static func describe(_ notification: JSONValue, relativeTo subscription: String) -> String {
        let method = notification["method"]?.stringValue ?? "<response>"
        guard let params = notification["params"], params["subscription"]?.stringValue == subscription else {
            return method + " " + (notification["params"] ?? notification).serialized
        }
        switch method {
        case "vm.output":
            let value = params["value"]?.serialized ?? "<none>"
            let seq = params["seq"]?.serialized ?? "<none>"
            let replay = params["replay"] == .bool(true) ? " replay" : (params["replay"] == nil ? "" : " replay=\(params["replay"]?.serialized ?? "")")
            return "\(params["output"]?.stringValue ?? "<none>")=\(value) #\(seq)\(replay)"
        case "vm.closed":
            return "closed \(params["reason"]?.stringValue ?? "<none>")"
        default:
            return method + " " + params.serialized
        }
    }
}

/// A reply the test needed was an error, or lacked a member.
struct CatalogSessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
