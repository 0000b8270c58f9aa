import JSONCore
import JSONRPC

/// `session.resume {token, received?}` → `{session, subscriptions, pending}`: the calling
/// connection takes over a resumable session (PROTOCOL.md, "Sessions").
public enum SessionResumeMethod: VMMethod {
    public static let name = "session.resume"

    public struct Params: Sendable, Hashable {
        /// The token `session.open` answered.
        public var token: String
        /// Per subscription id, the last `seq` the client received on it (0: none). When it is
        /// below what the daemon handed to the lost connection, the daemon reports the rest as
        /// lost and sends the current state values again; `nil` leaves that to the client.
        public var received: [String: Int64]?

        public init(token: String, received: [String: Int64]? = nil) {
            self.token = token
            self.received = received
        }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["token", "received"], method: SessionResumeMethod.name)
            token = try reader.string("token", nonEmpty: true)
            guard let object = try reader.optionalObject("received") else {
                received = nil
                return
            }
            var seqs: [String: Int64] = [:]
            for (subscription, value) in object {
                guard let seq = value.int64Value, seq >= 0 else {
                    let got = value.int64Value.map { String($0) } ?? value.typeName
                    throw WireError.invalidParams(path: "/received/" + jsonPointerEscaped(subscription), expected: "integer from 0", got: got)
                }
                seqs[subscription] = seq
            }
            received = seqs
        }

        /// The params object (a client's side); `received` in subscription id order.
        public var jsonValue: JSONValue {
            guard let received else { return ["token": .string(token)] }
            let seqs = JSONObject(received.keys.sorted().map { ($0, JSONValue.integer(received[$0] ?? 0)) })
            return ["token": .string(token), "received": .object(seqs)]
        }
    }

    /// What `session.resume` answers.
    public struct Result: Sendable, Hashable {
        /// The session's name, as `session.open` answered it.
        public var session: String
        /// The ids of the subscriptions the session holds, which continue on this connection.
        public var subscriptions: [String]
        /// The ids of the session's requests still waiting for their reply, which this
        /// connection now receives.
        public var pending: [RequestID]

        package init(session: String, subscriptions: [String], pending: [RequestID]) {
            self.session = session
            self.subscriptions = subscriptions
            self.pending = pending
        }

        /// Reads the result (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            session = try members.decode("session")
            subscriptions = try members.decode("subscriptions")
            let ids: [JSONValue] = try members.decode("pending")
            var pending: [RequestID] = []
            for id in ids {
                guard let request = RequestID(id) else {
                    throw JSONDecodingError.typeMismatch(expected: "request id (string, number or null)", got: id)
                }
                pending.append(request)
            }
            self.pending = pending
        }

        /// `{"session": …, "subscriptions": [...], "pending": [...]}`.
        package var jsonValue: JSONValue {
            [
                "session": .string(session),
                "subscriptions": .array(subscriptions.map { .string($0) }),
                "pending": .array(pending.map(\.jsonValue)),
            ]
        }
    }

    /// `{"session": …, "subscriptions": [...], "pending": [...]}`: the subscription ids the
    /// session holds and the ids of its requests still waiting for their reply.
    package static func result(session: String, subscriptions: [String], pending: [RequestID]) -> JSONValue {
        Result(session: session, subscriptions: subscriptions, pending: pending).jsonValue
    }
}
