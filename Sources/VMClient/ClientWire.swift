import JSONCore
import JSONRPC

/// Encoding what a client sends and sorting what it receives. Both clients (the async
/// ``VMClient`` and the blocking ``VMBlockingConnection``) speak NDJSON: one message per line.
enum ClientWire {
    /// One request line. Ids are integers counted by the client, so replies match exactly.
    static func request(id: Int64, method: String, params: JSONValue?) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(96)
        JSONRPCEncoder.appendRequest(id: .integer(id), method: method, params: params, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        return buffer
    }

    /// One notification line.
    static func notification(method: String, params: JSONValue?) -> [UInt8] {
        var buffer: [UInt8] = []
        JSONRPCEncoder.appendNotification(method: method, params: params, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        return buffer
    }

    /// What one received message means to a client.
    enum Incoming {
        /// A reply to the request with this integer id.
        case response(id: Int64, outcome: Result<JSONValue, VMRemoteError>)
        /// A reply whose id is not one of ours (the daemon's `id: null` errors: a frame it
        /// could not read, a limit on the whole frame).
        case unmatchedResponse(Result<JSONValue, VMRemoteError>)
        /// A notification from the daemon.
        case notification(method: String, params: JSONValue)
        /// Something that is not a message a daemon sends.
        case invalid(String)
    }

    /// Sorts one frame (a line without its `\n`) into the messages it holds. A batch reply
    /// (the daemon answers batches with arrays) yields its elements in order.
    static func decode(_ frame: some Collection<UInt8>) -> [Incoming] {
        var messages: [Incoming] = []
        decode(frame, into: &messages)
        return messages
    }

    /// ``decode(_:)``, appending to `messages`.
    static func decode(_ frame: some Collection<UInt8>, into messages: inout [Incoming]) {
        switch JSONRPCDecoder.decode(frame) {
        case .single(let entry): messages.append(sort(entry))
        case .batch(let entries): for entry in entries { messages.append(sort(entry)) }
        case .rejected(let error): messages.append(.invalid(error.message))
        }
    }

    private static func sort(_ entry: JSONRPCEntry) -> Incoming {
        switch entry {
        case .invalid(_, let error):
            return .invalid(error.message)
        case .message(.notification(let notification)):
            return .notification(method: notification.method, params: notification.params ?? .object([:]))
        case .message(.request(let request)):
            return .invalid("the daemon sent a request (\(request.method)); it only sends replies and notifications")
        case .message(.response(let response)):
            let outcome = response.outcome.mapError(VMRemoteError.init)
            if case .integer(let id) = response.id { return .response(id: id, outcome: outcome) }
            return .unmatchedResponse(outcome)
        }
    }
}
