import JSONCore

/// Short forms of the instance methods, and a one-line text form of notifications so a test
/// states an exact sequence (`"count=6 #2"`) in one expectation.
extension RPCSession {
    /// `vm.create` of `type`, subscribed to every output (with replay) unless `subscribe` is
    /// false; the instance id and the subscription id (empty when not subscribed).
    package func create(_ type: String, args: JSONValue = [:], subscribe: Bool = true) async throws -> (instance: String, subscription: String) {
        var params: JSONObject = ["type": .string(type), "args": args]
        if subscribe { params["subscribe"] = [:] }
        let created = try await result("vm.create", .object(params))
        guard let instance = created["instance"]?.stringValue else {
            throw RPCSessionError.missing("vm.create \(type): no instance in \(created.encodedString())")
        }
        return (instance, created["subscription"]?.stringValue ?? "")
    }

    /// `vm.send` as a request; the whole reply (a null result, or an error).
    @discardableResult
    package func send(_ instance: String, _ input: String, _ value: JSONValue? = nil) async throws -> JSONValue {
        var params: JSONObject = ["instance": .string(instance), "input": .string(input)]
        if let value { params["value"] = value }
        return try await call("vm.send", .object(params))
    }

    /// `vm.get`'s value; an error reply throws, quoted.
    package func get(_ instance: String, _ output: String) async throws -> JSONValue {
        let got = try await result("vm.get", ["instance": .string(instance), "output": .string(output)])
        guard let value = got["value"] else {
            throw RPCSessionError.missing("vm.get \(instance) \(output): no value in \(got.encodedString())")
        }
        return value
    }

    /// `vm.execute`'s params.
    package static func execute(_ instance: String, _ action: String) -> JSONValue {
        ["instance": .string(instance), "action": .string(action)]
    }

    /// Takes exactly `count` messages (waiting, bounded, for them), described relative to
    /// `subscription` (see ``describe(_:relativeTo:)``).
    package func take(_ count: Int, of subscription: String, timeout: Duration = Waiting.defaultTimeout) async throws -> [String] {
        try await take(count, timeout: timeout).map { Self.describe($0, relativeTo: subscription) }
    }

    /// Takes every queued message, described relative to `subscription`. After a request's
    /// reply, these are all the notifications the request caused before it.
    package func drain(_ subscription: String) -> [String] {
        takeQueued().map { Self.describe($0, relativeTo: subscription) }
    }

    /// Reads (bounded) until a message satisfies `isWanted`; takes it and everything before it,
    /// described relative to `subscription`.
    package func takeThrough(of subscription: String, timeout: Duration = Waiting.defaultTimeout, _ isWanted: (JSONValue) -> Bool) async throws -> [String] {
        try await takeThrough(timeout: timeout, isWanted).map { Self.describe($0, relativeTo: subscription) }
    }

    /// A message as one short line: a `vm.output` of `subscription` as `output=value #seq`
    /// (plus ` replay`), a `vm.closed` of it as `closed reason`; anything else (another
    /// subscription's values, `vm.error`, a reply) with its method and params in full, so an
    /// unexpected message shows up in a failed expectation as itself.
    package static func describe(_ message: JSONValue, relativeTo subscription: String) -> String {
        let method = message["method"]?.stringValue ?? "<response>"
        guard let params = message["params"], params["subscription"]?.stringValue == subscription else {
            return method + " " + (message["params"] ?? message).encodedString()
        }
        switch method {
        case "vm.output":
            let value = params["value"]?.encodedString() ?? "<none>"
            let seq = params["seq"]?.encodedString() ?? "<none>"
            let replay: String =
                switch params["replay"] {
                case nil: ""
                case .bool(true)?: " replay"
                case let other?: " replay=\(other.encodedString())"
                }
            return "\(params["output"]?.stringValue ?? "<none>")=\(value) #\(seq)\(replay)"
        case "vm.closed":
            return "closed \(params["reason"]?.stringValue ?? "<none>")"
        default:
            return method + " " + params.encodedString()
        }
    }
}
