import JSONCore
import JSONRPC

/// `vm.progress {request, instance, action, completed, total?, message?}` (daemon → client):
/// how far the execution of the `vm.execute` request `request` has come. Sent only when that
/// request asked with `progress: true`, always before its reply (PROTOCOL.md §8, O12).
public enum VMProgressNotification {
    public static let name = "vm.progress"

    /// Appends the notification. `completed` and `total` are written as integers when they
    /// are whole numbers (byte counts, percentages), else as decimals.
    package static func append(
        request: RequestID, instance: String, action: String,
        completed: Double, total: Double?, message: String?, to buffer: inout [UInt8]
    ) {
        append(prefix: prefix(request: request, instance: instance, action: action),
               completed: completed, total: total, message: message, to: &buffer)
    }

    /// The bytes every `vm.progress` of one request starts with, through `"completed":`: made
    /// once per request, so each notification writes only what changes (the daemon's path).
    package static func prefix(request: RequestID, instance: String, action: String) -> [UInt8] {
        var buffer: [UInt8] = []
        JSONRPCEncoder.appendNotification(method: name, to: &buffer) { params in
            params.key(ascii: "request")
            request.encode(into: &params.buffer)
            params.member(ascii: "instance", string: instance)
            params.member(ascii: "action", string: action)
            params.key(ascii: "completed")
        }
        // Without the params object's and the message's closing braces, which `append` writes.
        buffer.removeLast(2)
        return buffer
    }

    /// Appends one notification after its request's ``prefix(request:instance:action:)``.
    package static func append(prefix: [UInt8], completed: Double, total: Double?, message: String?, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: prefix)
        appendNumber(completed, to: &buffer)
        if let total {
            buffer.append(contentsOf: #","total":"#.utf8)
            appendNumber(total, to: &buffer)
        }
        if let message {
            buffer.append(contentsOf: #","message":"#.utf8)
            JSONSerializer.appendString(message, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "}"))
    }

    private static func appendNumber(_ value: Double, to buffer: inout [UInt8]) {
        JSONSerializer.append(number(value), to: &buffer)
    }

    /// A count as JSON: an integer when it is a whole number that fits, else a double.
    package static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, let whole = Int64(exactly: value) { return .integer(whole) }
        return .double(value)
    }

    /// One notification's params, as a client reads them.
    public struct Params: Sendable, Hashable {
        /// The id of the `vm.execute` request it is about.
        public var request: JSONValue
        public var instance: String
        public var action: String
        public var completed: Double
        public var total: Double?
        public var message: String?

        package init(request: JSONValue, instance: String, action: String, completed: Double, total: Double? = nil, message: String? = nil) {
            self.request = request
            self.instance = instance
            self.action = action
            self.completed = completed
            self.total = total
            self.message = message
        }

        /// Reads the params (a client's side); members a client does not know are ignored.
        public init(json: JSONValue) throws(JSONDecodingError) {
            let decoder = try JSONObjectDecoder(json)
            request = try decoder.requiredMember("request")
            instance = try decoder.decode("instance")
            action = try decoder.decode("action")
            completed = try decoder.decode("completed")
            total = try decoder.decode("total")
            message = try decoder.decode("message")
        }

        /// `completed / total` between 0 and 1, when the total is known and not zero.
        public var fraction: Double? {
            guard let total, total > 0 else { return nil }
            return min(1, max(0, completed / total))
        }
    }
}
