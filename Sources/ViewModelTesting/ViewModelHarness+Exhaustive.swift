import ReactiveTesting
import Testing

/// Whether a harness checks that a test asserted everything (see ``ViewModelHarness/finish(sourceLocation:)``).
public enum Exhaustivity: Sendable, Equatable {
    /// Every event of every recording made through the harness must be asserted with
    /// `expect`, and no service call may still be running when the test finishes.
    case on
    /// Assert what matters; the rest is ignored (the default).
    case off
}

/// Something whose events a test may have left unasserted.
protocol UnassertedReporting: AnyObject {
    var label: String { get }
    var unassertedLines: [String] { get }
}

extension Recording: UnassertedReporting {}

extension ViewModelHarness {
    /// Ends the test: settles (``settle(sourceLocation:)``), then, when ``exhaustivity`` is
    /// `.on`, fails with a readable list of what was not asserted: the events of each
    /// recording no `expect` covered, and the service calls still running or asleep.
    ///
    /// ```swift
    /// let chat = ViewModelHarness(Chat.self, args: .init(), services: fake, scheduler: scheduler)
    /// chat.exhaustivity = .on
    /// let results = chat.record(\.results)
    /// chat.send(\.query, "swift")
    /// await chat.advance(by: .milliseconds(300))
    /// results.expect([.next(0, []), .next(300, ["swift is fast"])])
    /// await chat.finish()
    /// ```
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation)
        reportUnasserted(sourceLocation: sourceLocation)
    }

    /// The exhaustive check without settling (what `finish` does after it).
    /// (`sourceLocation` is `nil` when the harness went without `finish()`.)
    func reportUnasserted(sourceLocation: SourceLocation?) {
        isFinished = true
        guard exhaustivity == .on, let report = unassertedReport() else { return }
        if let sourceLocation {
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
        } else {
            Issue.record(Comment(rawValue: report + "\n(the harness was released without `await harness.finish()`)"))
        }
    }

    /// What an exhaustive test left unasserted, for a person; `nil` when nothing.
    func unassertedReport() -> String? {
        var sections: [String] = []
        for recording in recordings {
            let lines = recording.unassertedLines
            if !lines.isEmpty { sections.append("  \(recording.label):\n" + lines.joined(separator: "\n")) }
        }
        let running = calls.unfinished
        if !running.isEmpty {
            sections.append("  service calls still running:\n" + running.map { "    " + $0 }.joined(separator: "\n"))
        }
        guard !sections.isEmpty else { return nil }
        return "exhaustive harness: not asserted\n" + sections.joined(separator: "\n")
    }
}
