import JSONCore
import JSONRPC

/// `session.resume {token}` → `{session, subscriptions, pending}`: the calling connection takes
/// over a resumable session (PROTOCOL.md, "Sessions").
public enum SessionResumeMethod: VMMethod {
    public static let name = "session.resume"

    public struct Params: Sendable, Hashable {
        /// The token `session.open` answered.
        public var token: String

        public init(token: String) { self.token = token }

        public init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["token"], method: SessionResumeMethod.name)
            token = try reader.string("token", nonEmpty: true)
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["token": .string(token)] }
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

        public init(session: String, subscriptions: [String], pending: [RequestID]) {
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
        public var jsonValue: JSONValue {
            [
                "session": .string(session),
                "subscriptions": .array(subscriptions.map { .string($0) }),
                "pending": .array(pending.map(\.jsonValue)),
            ]
        }
    }

    /// `{"session": …, "subscriptions": [...], "pending": [...]}`: the subscription ids the
    /// session holds and the ids of its requests still waiting for their reply.
    public static func result(session: String, subscriptions: [String], pending: [RequestID]) -> JSONValue {
        Result(session: session, subscriptions: subscriptions, pending: pending).jsonValue
    }
}
