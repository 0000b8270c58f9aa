import JSONCore
import Posix
import VMClient
import VMProtocol

/// `record INSTANCE [-o FILE]`: writes a tape (Tape.swift) of what happens to an instance.
///
/// Built on what the protocol already offers (Protocol/PROTOCOL.md, section 13): a monitor
/// reports every `vm.send` and `vm.execute` any connection sends, and every response the
/// daemon sends, so inputs and actions with their outcomes come from it; outputs come from
/// an ordinary subscription on the same connection. Messages of vmctl's own connection are
/// left out. Lines are written as they are known, so an interrupted recording keeps them.
enum RecordCommand {
    static func run(_ run: Invocation) throws(CommandFailure) {
        let instance = run.argument("INSTANCE")
        let count = try run.integer("count")
        if let count, count < 1 { throw .usage("invalid value '\(count)' for --count: expected at least 1", run.parsed) }
        let deadline = try run.seconds("timeout").map { MonotonicClock.nanoseconds() &+ UInt64(clamping: $0.components.seconds) &* 1_000_000_000 &+ UInt64(clamping: $0.components.attoseconds / 1_000_000_000) }
        var args: JSONValue = .object([:])
        if let text = run.parsed.value("args") {
            do {
                args = try JSONParser.parse(Array(text.utf8))
            } catch {
                throw .usage("invalid value for --args: not JSON (\(error))", run.parsed)
            }
        }

        let monitor = try run.call(DaemonMonitorMethod.self)["monitor"]?.stringValue
        let listed = try run.call(VMListMethod.self)
        guard let summary = listed["instances"]?.arrayValue?.first(where: { $0["instance"]?.stringValue == instance }),
              let type = summary["type"]?.stringValue else {
            throw CommandFailure(status: .daemonError, message: "No instance \"\(instance)\" (unknownInstance)",
                                 hints: ["'vmctl list' shows the live instances."])
        }
        // Written out rather than `VMSubscribeMethod.Params`, which leaves out `replay` when it is
        // the default: a recording states it, as it always has.
        let subscribed = try run.call(VMSubscribeMethod.self, ["instance": .string(instance), "replay": true])
        guard let subscription = subscribed["subscription"]?.stringValue else {
            throw CommandFailure(status: .daemonError, message: "\(VMSubscribeMethod.name) answered no subscription id: \(subscribed)")
        }
        let start = MonotonicClock.nanoseconds()

        let sink = try Sink(path: run.parsed.value("output"), run: run)
        let header: JSONObject = [
            "tape": .integer(Tape.versionWithoutIds), "type": .string(type), "args": args,
            "recordedAt": .string(Tape.timestamp(nanosecondsSinceEpoch: WallClock.nanosecondsSinceEpoch())),
            "instance": .string(instance), "fromCreation": false,
        ]
        run.console.note("vmctl record: recording \(instance) from now on, mid-life (fromCreation: false); for a tape from its creation, create it with --record and use 'vmctl tape'")
        try sink.write(.object(header))

        var recorder = Recorder(instance: instance)
        _ = try run.connect()  // fails now, with its exit status, if the daemon is gone
        var written = 0
        defer { if recorder.hasPending { run.console.error("\(recorder.pendingCount) action(s) still running were left out of the tape") } }
        while true {
            guard let notification = try run.nextNotification(before: deadline) else { break }
            let milliseconds = Int64(clamping: (MonotonicClock.nanoseconds() &- start) / 1_000_000)
            let params = notification.params
            var ended = false
            switch notification.method {
            case DaemonMessageNotification.name where params["monitor"]?.stringValue == monitor:
                recorder.observe(params, at: milliseconds)
            case VMOutputNotification.name where params["subscription"]?.stringValue == subscription:
                var event: JSONObject = ["event": "output", "t": .integer(milliseconds),
                                         "output": params["output"] ?? .null, "value": params["value"] ?? .null]
                if params["replay"]?.boolValue == true { event["replay"] = true }
                recorder.append(event)
            case VMClosedNotification.name where params["subscription"]?.stringValue == subscription:
                ended = true
            default:
                break
            }
            for line in recorder.takeReady() {
                try sink.write(.object(line))
                written += 1
                if let count, written >= count { return }
            }
            if ended { break }
        }
        for line in recorder.takeRemaining() { try sink.write(.object(line)) }
    }

    /// Turns monitored messages into tape events, holding back everything after an action
    /// until its outcome is known (so the tape stays in the order things happened).
    private struct Recorder {
        let instance: String
        private var events: [JSONObject] = []
        /// `connection/id` of each running action → its index in `events`.
        private var running: [String: Int] = [:]
        /// vmctl's own connection, learnt from its first reported request.
        private var own: JSONValue?

        init(instance: String) { self.instance = instance }

        var hasPending: Bool { !running.isEmpty }
        var pendingCount: Int { running.count }

        mutating func append(_ event: JSONObject) { events.append(event) }

        mutating func observe(_ params: JSONValue, at milliseconds: Int64) {
            guard let connection = params["connection"], let message = params["message"] else { return }
            let incoming = params["direction"]?.stringValue == "in"
            if own == nil, incoming, message["method"]?.stringValue == VMListMethod.name {
                own = connection  // vmctl's own vm.list: the first request it makes after monitoring
                return
            }
            if connection == own { return }
            for single in message.arrayValue ?? [message] {
                if incoming { request(single, connection: connection, at: milliseconds) } else { response(single, connection: connection) }
            }
        }

        private mutating func request(_ message: JSONValue, connection: JSONValue, at milliseconds: Int64) {
            guard let params = message["params"], params["instance"]?.stringValue == instance else { return }
            switch message["method"]?.stringValue {
            case VMSendMethod.name:
                guard let input = params["input"] else { return }
                var event: JSONObject = ["event": "input", "t": .integer(milliseconds), "input": input]
                if let value = params["value"] { event["value"] = value }
                event["connection"] = connection
                events.append(event)
            case VMExecuteMethod.name:
                guard let action = params["action"], let id = message["id"], !id.isNull else { return }
                var event: JSONObject = ["event": "action", "t": .integer(milliseconds), "action": action]
                if let value = params["value"] { event["value"] = value }
                event["connection"] = connection
                running[key(connection, id)] = events.count
                events.append(event)
            default:
                return
            }
        }

        private mutating func response(_ message: JSONValue, connection: JSONValue) {
            guard let id = message["id"], let index = running.removeValue(forKey: key(connection, id)) else { return }
            if let error = message["error"] {
                events[index]["outcome"] = ["error": error]
            } else {
                events[index]["outcome"] = ["result": message["result"]?["value"] ?? .null]
            }
        }

        /// The events that can be written now: all of them up to the first running action.
        mutating func takeReady() -> [JSONObject] {
            let firstRunning = running.values.min() ?? events.count
            guard firstRunning > 0 else { return [] }
            let ready = Array(events[..<firstRunning])
            events.removeFirst(firstRunning)
            running = running.mapValues { $0 - firstRunning }
            return ready
        }

        /// Everything not yet written except the actions still running (they have no outcome).
        mutating func takeRemaining() -> [JSONObject] {
            let left = Set(running.values)
            return events.enumerated().filter { !left.contains($0.offset) }.map(\.element)
        }

        private func key(_ connection: JSONValue, _ id: JSONValue) -> String {
            connection.encodedString() + "/" + id.encodedString()
        }
    }

    /// Standard output, or the file `-o` names (created or truncated).
    final class Sink {
        private let file: FileDescriptor?
        private let run: Invocation

        init(path: String?, run: Invocation) throws(CommandFailure) {
            self.run = run
            guard let path, path != "-" else {
                file = nil
                return
            }
            do {
                file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o644)
            } catch {
                throw CommandFailure(status: .usage, message: "cannot write the tape to \(path): \(error)")
            }
        }

        func write(_ line: JSONValue) throws(CommandFailure) {
            guard let file else {
                run.console.line(line.encodedString())
                run.console.flush()
                return
            }
            do {
                try file.writeAll(Array((line.encodedString() + "\n").utf8))
            } catch {
                throw CommandFailure(status: .daemonError, message: "cannot write the tape: \(error)")
            }
        }

        deinit { try? file?.close() }
    }
}
