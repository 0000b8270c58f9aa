import JSONCore
import Posix
import VMTestSupport

/// A JSON-RPC session with a real daemon for tests: numbered requests, replies matched by id,
/// notifications kept in arrival order for the test to inspect.
final class VMDSession {
    let client: SocketClient
    private var nextID = 1000
    /// Notifications received so far and not yet taken.
    private(set) var notifications: [JSONValue] = []

    init(path: String) throws {
        client = try SocketClient.connect(path: path)
    }

    /// Sends a request and returns its response; notifications that arrive first are kept.
    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration = .seconds(10)) throws -> JSONValue {
        nextID += 1
        let id = nextID
        var request: JSONObject = ["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method)]
        if let params { request["params"] = params }
        try client.sendLine(JSONValue.object(request).serialized)
        return try response(id: id, timeout: timeout)
    }

    /// Reads until the response with `id`.
    func response(id: Int, timeout: Duration = .seconds(10)) throws -> JSONValue {
        while true {
            let message = try client.readMessage(timeout: timeout)
            if message["id"]?.intValue == id { return message }
            notifications.append(message)
        }
    }

    /// Sends a notification (no reply).
    func notify(_ method: String, _ params: JSONValue) throws {
        let message: JSONValue = ["jsonrpc": "2.0", "method": .string(method), "params": params]
        try client.sendLine(message.serialized)
    }

    /// The next notification named `method` (waiting for it, bounded); earlier ones are dropped.
    func next(_ method: String, timeout: Duration = .seconds(10)) throws -> JSONValue {
        while true {
            if let index = notifications.firstIndex(where: { $0["method"]?.stringValue == method }) {
                let found = notifications[index]
                notifications.removeSubrange(...index)
                return found
            }
            notifications.append(try client.readMessage(timeout: timeout))
        }
    }

    func close() { client.close() }
}

extension JSONValue {
    /// Compact JSON text.
    var serialized: String {
        var bytes: [UInt8] = []
        JSONSerializer.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `error.code` and `error.data.name` of a response, for compact expectations.
    var errorCodeAndName: (Int?, String?) {
        (self["error"]?["code"]?.intValue, self["error"]?["data"]?["name"]?.stringValue)
    }
}
