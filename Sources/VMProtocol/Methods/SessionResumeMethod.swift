import JSONCore
import JSONRPC

/// `session.resume {token}` → `{session, subscriptions, pending}`: the calling connection takes
/// over a resumable session (PROTOCOL.md, "Sessions").
public enum SessionResumeMethod {
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
    }

    /// `{"session": …, "subscriptions": [...], "pending": [...]}`: the subscription ids the
    /// session holds and the ids of its requests still waiting for their reply.
    public static func result(session: String, subscriptions: [String], pending: [RequestID]) -> JSONValue {
        [
            "session": .string(session),
            "subscriptions": .array(subscriptions.map { .string($0) }),
            "pending": .array(pending.map(\.jsonValue)),
        ]
    }
}
