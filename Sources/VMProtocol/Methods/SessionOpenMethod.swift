import JSONCore

/// `session.open {graceMs?}` → `{session, token, graceMs}`: makes the calling connection's
/// session resumable (PROTOCOL.md, "Sessions").
public enum SessionOpenMethod: VMMethod {
    public static let name = "session.open"

    /// The range `graceMs` must be in (the daemon caps it at its `sessionGraceMs` limit).
    package static let graceRange: ClosedRange<Int64> = 0...2_147_483_647

    public struct Params: Sendable, Hashable {
        /// How long a detached session waits for a resume, in milliseconds; `nil` for the
        /// daemon's `sessionGraceMs`.
        public var graceMs: Int64?

        public init(graceMs: Int64? = nil) { self.graceMs = graceMs }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["graceMs"], method: SessionOpenMethod.name)
            graceMs = try reader.optionalInteger("graceMs", in: SessionOpenMethod.graceRange)
        }

        /// The params object (a client's side): `{}` when the daemon's grace is wanted.
        public var jsonValue: JSONValue {
            guard let graceMs else { return .object([:]) }
            return ["graceMs": .integer(graceMs)]
        }
    }

    /// What `session.open` answers.
    public struct Result: Sendable, Hashable {
        /// The session's name, `"s<N>"`, stable across resumes.
        public var session: String
        /// 128 random bits in lower-case hex: the one secret `session.resume` takes.
        public var token: String
        /// The grace in force, in milliseconds (0: the session is not resumable).
        public var graceMs: Int64

        package init(session: String, token: String, graceMs: Int64) {
            self.session = session
            self.token = token
            self.graceMs = graceMs
        }

        /// Reads the result (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            session = try members.decode("session")
            token = try members.decode("token")
            graceMs = try members.decode("graceMs")
        }

        /// `{"session": …, "token": …, "graceMs": …}`.
        package var jsonValue: JSONValue {
            ["session": .string(session), "token": .string(token), "graceMs": .integer(graceMs)]
        }
    }
}
