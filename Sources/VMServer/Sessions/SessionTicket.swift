import ReactiveCore

/// What makes a ``Session`` resumable (`session.open`): its name, its token, its grace, and
/// while it is detached, the timer that expires it.
final class SessionTicket {
    /// `"s<N>"`, kept across resumes.
    let name: String
    /// 32 lower-case hex digits (128 random bits); never logged.
    let token: String
    /// How long a detach waits for `session.resume`; 0: the session is released at once.
    var graceMs: Int64
    /// Fires the expiry of a detached session; `nil` while attached.
    var expiry: (any Disposable)?

    init(name: String, token: String, graceMs: Int64) {
        self.name = name
        self.token = token
        self.graceMs = graceMs
    }

    /// 128 bits from the system's secure generator, as 32 lower-case hex digits.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(32)
        for _ in 0..<2 {
            let half: UInt64 = generator.next()
            let digits = String(half, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }
}
