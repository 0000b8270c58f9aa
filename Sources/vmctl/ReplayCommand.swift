import JSONCore
import Posix
import VMClient
import VMProtocol

/// `replay FILE [--update]`: replays a tape (Tape.swift) against a fresh, connection-scoped
/// instance and compares, per output, the sequence of values (and each action's outcome).
/// Exit 0 on a match, 1 with the first divergence (or a step the daemon did not answer within
/// `--step-timeout`), 2 for a file that is not a usable tape (unreadable, not a regular file,
/// over ``maxTapeBytes``, not recorded from creation, arguments the type refuses, a step over
/// the daemon's `maxFrameBytes`). The actions run for real, with the daemon's services.
///
/// Each step goes out at its recorded `t` (milliseconds since the recording started, divided
/// by `--speed`; `--no-wait` sends them back to back), so a search the user waited for is
/// not cancelled by the next keystroke in the replay. Ids the run makes up (the header's
/// `ids`) are matched by place (VMProtocol's TapeIds.swift).
enum ReplayCommand {
    /// The largest tape read.
    static let maxTapeBytes = 64 << 20

    static func run(_ run: Invocation) throws(CommandFailure) {
        let path = run.argument("FILE")
        let tape = try load(path)
        let settle = try run.seconds("timeout") ?? .seconds(2)
        let stepTimeout = try run.seconds("step-timeout") ?? .seconds(30)
        let speed = try pace(run)

        // Written out rather than `VMCreateMethod.Params`: the explicit `replay` and the member
        // order are what replays have always sent, and a step's members go out as the tape has them.
        var create: JSONObject = ["type": .string(tape.type), "scope": "connection", "subscribe": ["replay": true]]
        if let args = tape.args { create["args"] = args }
        let created: JSONValue
        let connection = try run.connect()
        let maxFrameBytes: Int
        do throws(VMClientError) {
            maxFrameBytes = try connection.call(DaemonInfoMethod.self)["limits"]?["maxFrameBytes"]?.intValue ?? Int.max
        } catch {
            throw .client(error, at: run.location)
        }
        try checkFrameSize(VMCreateMethod.name, create, maxFrameBytes: maxFrameBytes, tape: path, step: "its header")
        do throws(VMClientError) {
            created = try connection.call(VMCreateMethod.self, .object(create), timeout: stepTimeout)
        } catch {
            // Arguments the type refuses (invalidValue) make a bad tape as an unknown type does.
            if case .remote(let remote) = error, ["unknownType", "invalidParams", "invalidValue"].contains(remote.name) {
                throw CommandFailure(status: .usage, message: "bad tape \(path): the daemon cannot create its instance: \(remote.message)")
            }
            throw stepFailure(error, step: "vm.create", within: stepTimeout, at: run.location)
        }
        guard let instance = created["instance"]?.stringValue, let subscription = created["subscription"]?.stringValue else {
            throw CommandFailure(status: .daemonError, message: "\(VMCreateMethod.name) answered an unexpected shape: \(created)")
        }

        let ids = TapeIds(tape: tape, replayInstance: instance)
        var session = Session(connection: try run.connect(), subscription: subscription, location: run.location, stepTimeout: stepTimeout, ids: ids)
        let start = MonotonicClock.nanoseconds()
        var replayed: [Tape.Event] = []
        var divergence: String? = nil
        var divergenceStep = Int.max
        for (index, step) in tape.steps.enumerated() {
            if let speed, let t = step.object["t"]?.int64Value, t > 0 {
                try session.wait(until: start &+ UInt64(Double(t) * 1_000_000 / speed))
            }
            try session.drain()
            var object = step.object
            object["t"] = .integer(Int64(clamping: (MonotonicClock.nanoseconds() &- start) / 1_000_000))
            switch step {
            case .input:
                var params: JSONObject = ["instance": .string(instance), "input": object["input"] ?? .null]
                if let value = object["value"] { params["value"] = ids.replayed(value) }
                try checkFrameSize(VMSendMethod.name, params, maxFrameBytes: maxFrameBytes, tape: path, step: tape.describeStep(index))
                if let failure = try session.call(VMSendMethod.self, params, step: tape.describeStep(index)), divergence == nil {
                    divergence = "\(tape.describeStep(index)) failed: \(failure.encodedString())\n  expected: accepted"
                    divergenceStep = index
                }
                replayed.append(.input(object))
            case .action:
                var params: JSONObject = ["instance": .string(instance), "action": object["action"] ?? .null]
                if let value = object["value"] { params["value"] = ids.replayed(value) }
                if let timeoutMs = object["timeoutMs"] { params["timeoutMs"] = timeoutMs }
                try checkFrameSize(VMExecuteMethod.name, params, maxFrameBytes: maxFrameBytes, tape: path, step: tape.describeStep(index))
                let got: JSONObject
                if let failure = try session.call(VMExecuteMethod.self, params, step: tape.describeStep(index)) {
                    got = ["error": failure]
                } else {
                    got = ["result": ids.recorded(session.lastResult?["value"] ?? .null, port: object["action"]?.stringValue ?? "",
                                                  expected: object["outcome"]?["result"])]
                }
                let expected = object["outcome"]?.objectValue ?? [:]
                if divergence == nil, !Tape.sameOutcome(expected, got) {
                    divergence = "\(tape.describeStep(index)) had another outcome\n  expected: \(JSONValue.object(expected).encodedString())\n  got:      \(JSONValue.object(got).encodedString())"
                    divergenceStep = index
                }
                object["outcome"] = .object(got)
                replayed.append(.action(object))
            case .output:
                break
            }
            session.steps = index + 1
        }
        try session.settle(expecting: tape.expectations(), within: settle)

        if run.parsed.flag("update") {
            let diff = UpdateDiff(tape: tape, outputs: session.outputs)
            if !run.json { for line in diff.lines { run.console.line(line) } }
            if !diff.dropped.isEmpty, !run.parsed.flag("force") {
                throw CommandFailure(
                    status: .daemonError,
                    message: "--update would drop recorded values of \(diff.dropped.joined(separator: ", ")) (the replay emitted fewer); the tape is unchanged",
                    hints: ["Add --force to rewrite it anyway; a longer --timeout or the recorded pace (no --no-wait) may bring the values back."])
            }
            var updated = tape
            updated.events = merge(steps: replayed, outputs: session.outputs, start: start)
            do {
                let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o644)
                defer { try? file.close() }
                try file.writeAll(Array(updated.text().utf8))
            } catch {
                throw CommandFailure(status: .daemonError, message: "cannot rewrite \(path): \(error)")
            }
            if !run.json { run.console.line("updated \(path): \(updated.steps.count) steps, \(session.outputs.count) output values") }
            return
        }
        // The earlier of a step's failure and an output's divergence (one before the step caused it).
        if let output = outputDivergence(tape, session.outputs), divergence == nil || output.afterSteps <= divergenceStep {
            divergence = output.text
        }
        if let divergence {
            throw CommandFailure(status: .daemonError, message: "tape \(path) does not replay: \(divergence)",
                                 hints: ["If the new behaviour is right, 'vmctl replay \(path) --update' rewrites the tape's expectations."])
        }
        if run.json {
            run.console.line(JSONValue.object(["matched": true, "steps": .integer(Int64(tape.steps.count))]).encodedString())
        } else {
            run.console.line("\(path): \(tape.steps.count) steps replayed, every output matched")
        }
    }

    static func load(_ path: String) throws(CommandFailure) -> Tape {
        let bytes: [UInt8]
        do {
            // A regular file of bounded size only: a FIFO would block, /dev/zero never end.
            bytes = try FileSystem.readRegularFile(path, maxBytes: maxTapeBytes).bytes
        } catch {
            throw CommandFailure(status: .usage, message: "cannot read the tape \(path): \(error)")
        }
        let tape: Tape
        do {
            tape = try Tape.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw CommandFailure(status: .usage, message: "bad tape \(path): \(error.message)")
        }
        if let refusal = tape.replayRefusal { throw CommandFailure(status: .usage, message: "bad tape \(path): \(refusal)") }
        return tape
    }

    /// How much faster than recorded the steps go out (`--speed`, default 1); `nil` with
    /// `--no-wait`: back to back.
    private static func pace(_ run: Invocation) throws(CommandFailure) -> Double? {
        if run.parsed.flag("no-wait") { return nil }
        guard let text = run.parsed.value("speed") else { return 1 }
        guard let speed = Double(text), speed > 0, speed.isFinite else {
            throw .usage("invalid value '\(text)' for --speed: expected a positive number (2 replays twice as fast)", run.parsed)
        }
        return speed
    }

    /// Refuses (exit 2, a bad tape) a step whose request would exceed the daemon's
    /// `maxFrameBytes`: the daemon would close the connection on it, which reads as an
    /// unreachable daemon. Counts the request as the client writes it (an id of up to 20 digits).
    private static func checkFrameSize(
        _ method: String, _ params: JSONObject, maxFrameBytes: Int, tape path: String, step: String
    ) throws(CommandFailure) {
        let envelope = #"{"jsonrpc":"2.0","id":,"method":"","params":}"#.utf8.count + 20
        let bytes = envelope + method.utf8.count + JSONValue.object(params).encodedBytes().count
        guard bytes > maxFrameBytes else { return }
        // The step's description holds its value: shortened, not repeated in full.
        let step = step.count > 100 ? step.prefix(100) + "…" : step
        throw CommandFailure(
            status: .usage,
            message: "bad tape \(path): \(step) needs a request of about \(bytes) bytes, over the daemon's maxFrameBytes (\(maxFrameBytes))")
    }

    /// What a call that got no answer means: a step the daemon did not answer within
    /// `--step-timeout` is a divergence (exit 1); anything else is the client's failure.
    private static func stepFailure(_ error: VMClientError, step: String, within timeout: Duration, at location: VMSocketLocation) -> CommandFailure {
        guard case .timedOut = error else { return .client(error, at: location) }
        return CommandFailure(status: .daemonError, message: "\(step) got no answer within \(timeout) (--step-timeout)")
    }

    /// One emitted value: which output, its value, how many steps had been sent before it.
    struct Emitted {
        var output: String
        var value: JSONValue
        var afterSteps: Int
        var replay: Bool
        var milliseconds: Int64
    }

    /// The first output whose sequence differs, earliest by step.
    private static func outputDivergence(_ tape: Tape, _ outputs: [Emitted]) -> (afterSteps: Int, text: String)? {
        tape.outputDivergence(outputs.map { Tape.Emission(output: $0.output, value: $0.value, afterSteps: $0.afterSteps) })
    }

    private static func merge(steps: [Tape.Event], outputs: [Emitted], start: UInt64) -> [Tape.Event] {
        var events: [Tape.Event] = []
        var remaining = outputs[...]
        for (index, step) in steps.enumerated() {
            while let next = remaining.first, next.afterSteps <= index {
                events.append(.output(object(next)))
                remaining = remaining.dropFirst()
            }
            events.append(step)
        }
        events.append(contentsOf: remaining.map { .output(object($0)) })
        return events
    }

    private static func object(_ emitted: Emitted) -> JSONObject {
        var object: JSONObject = ["event": "output", "t": .integer(emitted.milliseconds),
                                  "output": .string(emitted.output), "value": emitted.value]
        if emitted.replay { object["replay"] = true }
        return object
    }

    /// The replaying connection: calls, and the outputs its subscription delivers.
    private struct Session {
        let connection: VMBlockingConnection
        let subscription: String
        let location: VMSocketLocation
        /// How long one step may wait for its answer.
        let stepTimeout: Duration
        let start = MonotonicClock.nanoseconds()
        var steps = 0
        var outputs: [Emitted] = []
        var lastResult: JSONValue?
        /// The run's ids, learned as the outputs arrive.
        let ids: TapeIds

        init(connection: VMBlockingConnection, subscription: String, location: VMSocketLocation, stepTimeout: Duration, ids: TapeIds) {
            self.connection = connection
            self.subscription = subscription
            self.location = location
            self.stepTimeout = stepTimeout
            self.ids = ids
        }

        /// Calls `method` for `step`; the remote error as JSON when it failed, else `nil`
        /// (result in `lastResult`).
        mutating func call(_ method: any VMMethod.Type, _ params: JSONObject, step: String) throws(CommandFailure) -> JSONValue? {
            do {
                lastResult = try connection.call(method, .object(params), timeout: stepTimeout)
                return nil
            } catch {
                guard case .remote(let remote) = error else {
                    throw ReplayCommand.stepFailure(error, step: step, within: stepTimeout, at: location)
                }
                var failure: JSONObject = ["code": .integer(Int64(remote.code)), "message": .string(remote.message)]
                if let data = remote.data { failure["data"] = data }
                return .object(failure)
            }
        }

        /// Takes the notifications that arrive until `deadline` (MonotonicClock nanoseconds).
        mutating func wait(until deadline: UInt64) throws(CommandFailure) {
            while true {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline else { return }
                _ = try take(timeout: .nanoseconds(Int64(clamping: deadline - now)))
            }
        }

        /// Takes every notification already received.
        mutating func drain() throws(CommandFailure) {
            while try take(timeout: .zero) {}
        }

        /// Waits until each output has as many values as expected (or `limit` passes), then a
        /// moment more for values the tape does not expect.
        mutating func settle(expecting expected: [String: [(value: JSONValue, afterSteps: Int)]], within limit: Duration) throws(CommandFailure) {
            let deadline = MonotonicClock.nanoseconds() &+ UInt64(clamping: limit.components.seconds) &* 1_000_000_000
                &+ UInt64(clamping: limit.components.attoseconds / 1_000_000_000)
            while !expected.allSatisfy({ name, values in outputs.count(where: { $0.output == name }) >= values.count }) {
                let now = MonotonicClock.nanoseconds()
                if now >= deadline { return }
                _ = try take(timeout: .nanoseconds(Int64(clamping: deadline - now)))
            }
            while try take(timeout: .milliseconds(50)) {}
        }

        private mutating func take(timeout: Duration) throws(CommandFailure) -> Bool {
            let next: (method: String, params: JSONValue)?
            do {
                next = try connection.nextNotification(timeout: timeout)
            } catch {
                throw .client(error, at: location)
            }
            guard let next else { return false }
            if next.method == VMOutputNotification.name, next.params["subscription"]?.stringValue == subscription {
                let output = next.params["output"]?.stringValue ?? ""
                outputs.append(Emitted(
                    output: output, value: ids.recorded(output: output, value: next.params["value"] ?? .null),
                    afterSteps: steps, replay: next.params["replay"]?.boolValue == true,
                    milliseconds: Int64(clamping: (MonotonicClock.nanoseconds() &- start) / 1_000_000)))
            }
            return true
        }
    }
}
