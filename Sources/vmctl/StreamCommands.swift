import JSONCore
import VMProtocol
import Posix
import VMClient

/// `watch` and `monitor`: notifications as they come, one line each, until interrupted,
/// `--count`, `--timeout`, or the end of what is watched.
enum StreamCommands {
    static func watch(_ run: Invocation) throws(CommandFailure) {
        let instance = run.argument("INSTANCE")
        let outputs = run.parsed.positionals("OUTPUT")
        let options = SubscribeOptions(
            outputs: outputs.isEmpty ? nil : outputs, replay: !run.parsed.flag("no-replay"), patches: run.parsed.flag("patches"))
        let limits = try Limits(run, countsChanges: true)
        let result = try run.call(VMSubscribeMethod.self, VMSubscribeMethod.Params(instance: instance, options: options).jsonValue)
        guard let subscription = result["subscription"]?.stringValue else {
            throw CommandFailure(status: .daemonError, message: "\(VMSubscribeMethod.name) answered no subscription id: \(result)")
        }
        let session = WatchSession(run, instance: instance, subscription: subscription, options: options)
        defer { session.close(run) }
        // The gap last printed: after a resume, vm.overflow may report the same seqs again
        // (a gap before the first queued value showed them first; PROTOCOL.md, section 18).
        var printedGap: ClosedRange<Int64>?
        try stream(run, limits, onDisconnect: session.resumer(run, instance: instance)) { method, params in
            // After vmd restarted, watch follows the instance on a new subscription (WatchSession.swift).
            guard params["subscription"]?.stringValue == session.subscription else { return .skip }
            switch method {
            case VMOutputNotification.name:
                if let seq = params["seq"]?.int64Value {
                    let lastSeq = session.lastSeq
                    if seq <= lastSeq { return .skip }  // a duplicate across a resume (PROTOCOL.md, section 18)
                    if lastSeq > 0 && seq > lastSeq + 1 {
                        printLost(from: lastSeq + 1, to: seq - 1, run)
                        if !run.json { printedGap = (lastSeq + 1)...(seq - 1) }
                    }
                    session.lastSeq = max(lastSeq, seq)
                }
                printOutput(params, run)
                return params["replay"]?.boolValue == true ? .counted : .countedChange
            case VMOverflowNotification.name:
                let from = params["lost"]?["from"]?.int64Value, to = params["lost"]?["to"]?.int64Value
                if let from, let to, from <= to, let printedGap, printedGap.contains(from), printedGap.contains(to) {
                    return .skip
                }
                if let to { session.lastSeq = max(session.lastSeq, to) }
                printOverflow(params, run)
                return .skip
            case VMClosedNotification.name:
                // vmd is stopping; a durable instance comes back at the restart (WatchSession.swift).
                if params["reason"]?.stringValue == "shutdown" && session.followsRestarts { return .skip }
                if run.json {
                    run.console.line(params.encodedString())
                } else {
                    let reason = params["reason"]?.stringValue ?? "unknown"
                    run.console.line(run.console.styled("\(instance) closed (\(reason))", Style.yellow))
                }
                return .end
            default:
                return .skip
            }
        }
    }

    static func monitor(_ run: Invocation) throws(CommandFailure) {
        let limits = try Limits(run)
        let result = try run.call(DaemonMonitorMethod.self)
        let monitor = result["monitor"]?.stringValue
        try stream(run, limits) { method, params in
            guard method == DaemonMessageNotification.name, params["monitor"]?.stringValue == monitor else { return .skip }
            if run.json {
                run.console.line(params.encodedString())
            } else {
                let connection = params["connection"].map(ValueText.plain) ?? "?"
                let incoming = params["direction"]?.stringValue == "in"
                let arrow = incoming ? run.console.styled("→ in ", Style.green) : run.console.styled("← out", Style.cyan)
                let message = params["message"].map { $0.encodedString() } ?? ""
                run.console.line("\(run.console.styled("conn \(connection)", Style.dim)) \(arrow) \(message)")
            }
            return .counted
        }
    }

    // MARK: - The loop

    /// `--count`, `--count-changes` (watch only) and `--timeout`.
    private struct Limits {
        var count: Int?
        var changes: Int?
        var deadline: UInt64?

        init(_ run: Invocation, countsChanges: Bool = false) throws(CommandFailure) {
            count = try run.integer("count")
            if let count, count < 1 { throw .usage("invalid value '\(count)' for --count: expected at least 1", run.parsed) }
            if countsChanges {
                changes = try run.integer("count-changes")
                if let changes, changes < 1 {
                    throw .usage("invalid value '\(changes)' for --count-changes: expected at least 1", run.parsed)
                }
            }
            deadline = try run.seconds("timeout").map { MonotonicClock.nanoseconds() &+ nanoseconds($0) }
        }
    }

    /// `counted`: a value that --count counts; `countedChange`: a new one, which both count.
    private enum Verdict { case skip, counted, countedChange, end }

    /// Reads notifications, hands each to `handle`, flushes what it printed, and stops at the
    /// count, the deadline, or when `handle` says the stream ended.
    private static func stream(
        _ run: Invocation, _ limits: Limits, onDisconnect: ((String) throws(CommandFailure) -> Void)? = nil,
        _ handle: (String, JSONValue) -> Verdict
    ) throws(CommandFailure) {
        _ = try run.connect()  // fails now, with its exit status, if the daemon is gone
        run.console.flush()
        var seen = 0
        var changed = 0
        while true {
            guard let notification = try run.nextNotification(before: limits.deadline, onDisconnect: onDisconnect) else { return }  // the deadline passed
            let verdict = handle(notification.method, notification.params)
            run.console.flush()
            switch verdict {
            case .skip: continue
            case .end: return
            case .counted, .countedChange:
                seen += 1
                if verdict == .countedChange { changed += 1 }
                if let count = limits.count, seen >= count { return }
                if let changes = limits.changes, changed >= changes { return }
            }
        }
    }

    private static func printOutput(_ params: JSONValue, _ run: Invocation) {
        if run.json {
            run.console.line(params.encodedString())
            return
        }
        let console = run.console
        let name = params["output"]?.stringValue ?? "?"
        if params["value"] == nil, let patch = params["patch"]?.arrayValue {
            console.line(console.styled(name, Style.cyan) + " ~ " + patchSummary(patch))
            return
        }
        let value = params["value"].map { $0.encodedString() } ?? "null"
        var line = console.styled(name, Style.cyan) + " = " + value
        if params["replay"]?.boolValue == true { line += console.styled("  (current)", Style.dim) }
        console.line(line)
    }

    /// A patch (`--patches`) in one line: `replace /3/done true; remove /7`, the first few
    /// operations and how many more.
    static func patchSummary(_ patch: [JSONValue], shown: Int = 4) -> String {
        var parts: [String] = []
        for operation in patch.prefix(shown) {
            var part = operation["op"]?.stringValue ?? "?"
            if let from = operation["from"]?.stringValue { part += " " + (from.isEmpty ? "\"\"" : from) + " ->" }
            let path = operation["path"]?.stringValue ?? "?"
            part += " " + (path.isEmpty ? "\"\"" : path)
            if let value = operation["value"] {
                let text = value.encodedString()
                part += " " + (text.count > 60 ? String(text.prefix(57)) + "..." : text)
            }
            parts.append(part)
        }
        if patch.count > shown { parts.append("and \(patch.count - shown) more") }
        return parts.isEmpty ? "(no change)" : parts.joined(separator: "; ")
    }

    private static func printOverflow(_ params: JSONValue, _ run: Invocation) {
        if run.json {
            run.console.line(params.encodedString())
            return
        }
        let from = params["lost"]?["from"].map(ValueText.plain) ?? "?"
        let to = params["lost"]?["to"].map(ValueText.plain) ?? "?"
        run.console.line(run.console.styled("… values #\(from)–#\(to) were lost (vmctl read too slowly, or the connection dropped); newest state follows", Style.yellow))
    }

    /// Values that never came: written to a connection that dropped before vmctl read them.
    private static func printLost(from: Int64, to: Int64, _ run: Invocation) {
        guard !run.json else { return }
        run.console.line(run.console.styled("… values #\(from)–#\(to) were lost with the connection", Style.yellow))
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }
}
