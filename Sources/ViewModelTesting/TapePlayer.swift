import JSONCore
import ReactiveCore
import ReactiveTesting
import ViewModelKit

/// Replays a tape in-process, without a daemon, on a ``TestScheduler``: the Swift side of
/// `vmctl replay` (the tape format is Protocol/PROTOCOL.md, section 17).
///
/// ```swift
/// var registry = ViewModelRegistry()
/// try registry.register(Counter.self)
/// try await TapePlayer(registry: registry).replay(tape: text)   // throws the first divergence
/// ```
///
/// The instance is built by a ``ViewModelHost`` from the tape's type and arguments; its
/// outputs are watched from creation (state outputs' current values first, as a
/// subscription's replay); each input is pushed and each action executed in order, virtual
/// time running until the action's outcome is known (services that answer on another thread
/// are awaited, at most `serviceTimeout` each). Then, per output, the sequence of values and
/// each action's outcome are compared with the tape: results equal, errors equal by name.
public struct TapePlayer {
    /// Why a replay failed.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// The text is not a usable tape (empty, truncated, another version, unknown type).
        case badTape(String)
        /// The view model did something else: the first divergence, expected versus got, and
        /// the step that preceded it.
        case divergence(String)

        /// The failure for a person: `bad tape: ...` or `tape does not replay: ...`.
        public var description: String {
            switch self {
            case .badTape(let message): return "bad tape: " + message
            case .divergence(let message): return "tape does not replay: " + message
            }
        }
    }

    /// The types the tape may name.
    public let registry: ViewModelRegistry
    /// How long to wait for a service answering on another thread, per wait.
    public var serviceTimeout: Duration

    /// A player for tapes of `registry`'s types.
    public init(registry: ViewModelRegistry, serviceTimeout: Duration = .seconds(5)) {
        self.registry = registry
        self.serviceTimeout = serviceTimeout
    }

    /// Replays `tape` (NDJSON text) and throws ``Failure`` unless every output and outcome matches.
    public func replay(tape text: String, scheduler: TestScheduler = TestScheduler()) async throws(Failure) {
        let tape = try Self.parse(text)
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let instance: ViewModelInstance
        do {
            instance = try host.create(type: tape.type, args: tape.args)
        } catch {
            throw .badTape("cannot create a \(tape.type): \(error)")
        }
        let log = EmittedLog()
        var watches: [any Disposable] = []
        defer { for watch in watches { watch.dispose() } }
        for output in instance.outputNames() {
            if instance.type.outputs.first(where: { $0.name == output })?.kind == .state,
               let current = try? instance.currentValue(output: output) {
                log.values.append((output, current, 0))
            }
            if let watch = try? instance.observe(output: output, { value in log.values.append((output, value, log.steps)) }) {
                watches.append(watch)
            }
        }
        host.deliverHeldEvents()
        scheduler.advance()

        var divergence: String? = nil
        for (index, step) in tape.steps.enumerated() {
            log.steps = index + 1  // what the step emits counts as after it, as in the tape
            switch step.kind {
            case .input(let name):
                do {
                    try instance.send(input: name, value: step.value)
                } catch {
                    if divergence == nil { divergence = "\(step.label) failed: \(error)\n  expected: accepted" }
                }
                scheduler.advance()
            case .action(let name, let expected):
                let box = OutcomeBox()
                do {
                    let running = try instance.execute(action: name, value: step.value) { box.result = $0 }
                    watches.append(running)
                } catch {
                    box.result = .failure(error)
                }
                var waits = 0
                while box.result == nil {
                    scheduler.start()
                    if box.result != nil { break }
                    let arrived = await scheduler.waitForEnqueued(count: 1, timeout: serviceTimeout)
                    waits += 1
                    if !arrived || waits > 10_000 { break }
                    scheduler.advance()
                }
                let got: JSONObject
                switch box.result {
                case .success(let value)?: got = ["result": value]
                case .failure(let error)?: got = ["error": ["name": .string(Self.name(of: error))]]
                case nil: got = ["error": ["name": "noOutcome"]]
                }
                if divergence == nil, !Self.same(expected, got) {
                    divergence = "\(step.label) had another outcome\n  expected: \(JSONValue.object(expected).encodedString())\n  got:      \(JSONValue.object(got).encodedString())"
                }
            }
        }
        scheduler.start()
        if let divergence { throw .divergence(divergence) }
        if let divergence = Self.firstDivergence(tape, log.values) { throw .divergence(divergence) }
    }

    // MARK: - The tape

    private struct Step {
        enum Kind {
            case input(String)
            case action(String, outcome: JSONObject)
        }
        var kind: Kind
        var value: JSONValue?
        var label: String
    }

    private struct ParsedTape {
        var type: String
        var args: JSONValue?
        var steps: [Step] = []
        /// Per output, the expected values and how many steps came before each.
        var outputs: [String: [(value: JSONValue, afterSteps: Int)]] = [:]
    }

    private static func parse(_ text: String) throws(Failure) -> ParsedTape {
        var lines: [(Int, Substring)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
            lines.append((index + 1, line))
        }
        guard let first = lines.first else { throw .badTape("the tape is empty") }
        let header = try object(first.1, first.0)
        guard let version = header["tape"] else { throw .badTape("line \(first.0): not a tape header (no \"tape\" version)") }
        guard version.int64Value == 1 else { throw .badTape("line \(first.0): unsupported tape version \(version.encodedString()); this reads version 1") }
        guard let type = header["type"]?.stringValue else { throw .badTape("line \(first.0): the header has no \"type\" string") }
        var tape = ParsedTape(type: type, args: header["args"].flatMap { $0.isNull ? nil : $0 })
        for (number, line) in lines.dropFirst() {
            let event = try object(line, number)
            let value = event["value"]
            let shown = value.map { " " + $0.encodedString() } ?? ""
            switch event["event"]?.stringValue {
            case "input":
                guard let name = event["input"]?.stringValue else { throw .badTape("line \(number): an input event needs an \"input\" string") }
                tape.steps.append(Step(kind: .input(name), value: value, label: "step \(tape.steps.count + 1) (line \(number)): input \(name)\(shown)"))
            case "action":
                guard let name = event["action"]?.stringValue else { throw .badTape("line \(number): an action event needs an \"action\" string") }
                guard let outcome = event["outcome"]?.objectValue, outcome.contains("result") != outcome.contains("error") else {
                    throw .badTape("line \(number): an action event needs \"outcome\": {\"result\": ...} or {\"error\": ...} (is the tape truncated?)")
                }
                tape.steps.append(Step(kind: .action(name, outcome: outcome), value: value, label: "step \(tape.steps.count + 1) (line \(number)): action \(name)\(shown)"))
            case "output":
                guard let name = event["output"]?.stringValue, let value else { throw .badTape("line \(number): an output event needs an \"output\" string and a \"value\"") }
                tape.outputs[name, default: []].append((value, tape.steps.count))
            case let other:
                throw .badTape("line \(number): unknown event \(other.map { "\"\($0)\"" } ?? "(no \"event\" member)")")
            }
        }
        return tape
    }

    private static func object(_ line: Substring, _ number: Int) throws(Failure) -> JSONObject {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(Array(line.utf8))
        } catch {
            throw .badTape("line \(number): not JSON (\(error)); is the tape truncated?")
        }
        guard let object = parsed.objectValue else { throw .badTape("line \(number): expected a JSON object") }
        return object
    }

    // MARK: - Comparing

    /// Results equal; errors by their symbolic name (the wire's `data.name`).
    private static func same(_ expected: JSONObject, _ got: JSONObject) -> Bool {
        if let error = expected["error"] {
            let name = error["data"]?["name"] ?? error["name"]
            return got["error"]?["name"] == name
        }
        return got["error"] == nil && expected["result"] == got["result"]
    }

    private static func name(of error: ViewModelError) -> String {
        error.name
    }

    private static func firstDivergence(_ tape: ParsedTape, _ emitted: [(output: String, value: JSONValue, afterSteps: Int)]) -> String? {
        var got: [String: [(value: JSONValue, afterSteps: Int)]] = [:]
        for item in emitted { got[item.output, default: []].append((item.value, item.afterSteps)) }
        var best: (steps: Int, text: String)? = nil
        for name in Set(tape.outputs.keys).union(got.keys).sorted() {
            let want = tape.outputs[name] ?? []
            let have = got[name] ?? []
            for index in 0..<max(want.count, have.count) {
                let wanted = index < want.count ? want[index] : nil
                let had = index < have.count ? have[index] : nil
                if let wanted, let had, wanted.value == had.value { continue }
                let steps = min(wanted?.afterSteps ?? Int.max, had?.afterSteps ?? Int.max)
                let cause = steps == 0 || steps > tape.steps.count ? "the instance's creation" : tape.steps[steps - 1].label
                let text = """
                    output "\(name)" differs at value #\(index + 1)
                      expected: \(wanted.map { $0.value.encodedString() } ?? "(no more values)")
                      got:      \(had.map { $0.value.encodedString() } ?? "(no more values)")
                      after:    \(cause)
                    """
                if best.map({ steps < $0.steps }) ?? true { best = (steps, text) }
                break
            }
        }
        return best?.text
    }

    /// What the watched outputs emitted, and how many steps had been performed by then.
    private final class EmittedLog {
        var values: [(output: String, value: JSONValue, afterSteps: Int)] = []
        var steps = 0
    }

    /// An action's outcome, once known.
    private final class OutcomeBox {
        var result: Result<JSONValue, ViewModelError>?
    }
}
