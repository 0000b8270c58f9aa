import InboxKit
import ReactiveCore
import ReactiveTesting
import Testing
import Synchronization
import ViewModelKit

// Mail and chat servers for the tests, and the one helper they share.

/// Answers every sync with the same messages, at once.
struct FixedMail: MailService {
    var messages: [Message]

    func messages(in folder: String, limit: Int) async throws -> [Message] {
        Array(messages.prefix(max(0, limit)))
    }
}

/// Answers with one message whose subject says which limit it was asked for.
struct LimitEchoMail: MailService {
    func messages(in folder: String, limit: Int) async throws -> [Message] {
        [Message(id: "echo", from: "server@example.com", subject: "limit \(limit)")]
    }
}

/// Fails every sync with a sentence for a person.
struct DownMail: MailService {
    func messages(in folder: String, limit: Int) async throws -> [Message] {
        throw ActionFailure("The mail server is down for maintenance.")
    }
}

/// Answers after `delay` on the clock it is given, unless its task is cancelled first;
/// `log` says what it was asked and what was cancelled.
struct SlowMail: MailService {
    let clock: any Clock<Duration>
    let delay: Duration
    let log = Log()

    func messages(in folder: String, limit: Int) async throws -> [Message] {
        try await log.run("sync", folder) { try await clock.sleep(for: delay) }
        return []
    }
}

/// Three messages, two of them unread.
let sampleMessages = [
    Message(id: "m3", from: "ada@example.com", subject: "Engine notes"),
    Message(id: "m2", from: "grace@example.com", subject: "A moth"),
    Message(id: "m1", from: "alan@example.com", subject: "Numbers", isRead: true),
]

/// Whether an execution ended because the kit's timeout fired.
func isTimeout(_ error: (any Error)?) -> Bool {
    guard case .underlyingError(let underlying)? = error as? ActionError else { return false }
    return underlying is ViewModelTimeoutError
}

/// A chat server on the clock it is given: a search answers after `searchLatency`, a send
/// after `sendLatency` (or fails with `failure`); `log` says what was asked and cancelled.
struct FakeChat: ChatService {
    let clock: any Clock<Duration>
    var searchLatency: Duration = .zero
    var sendLatency: Duration = .zero
    var failure: ActionFailure?
    let log = Log()

    func search(_ query: String) async throws -> [String] {
        try await log.run("search", query) { try await clock.sleep(for: searchLatency) }
        return ["\(query) is fast"]
    }

    func send(_ text: String) async throws -> String {
        try await log.run("send", text) { try await clock.sleep(for: sendLatency) }
        if let failure { throw failure }
        return "id-\(text)"
    }
}

/// What a fake was asked, and which calls were cancelled, in order.
final class Log: Sendable {
    private let lines = Mutex<[String]>([])

    var entries: [String] { lines.withLock { $0 } }

    func run(_ request: String, _ argument: String, _ wait: () async throws -> Void) async throws {
        lines.withLock { $0.append("\(request) \(argument)") }
        do {
            try await wait()
        } catch {
            lines.withLock { $0.append("cancelled \(argument)") }
            throw error
        }
    }
}
