import JSONCore
import ReactiveCore
import ReactiveTesting
import ViewModelKit
import VMProtocol

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
        let tape: Tape
        do {
            tape = try Tape.parse(text)
        } catch {
            throw .badTape(error.message)
        }
        if let refusal = tape.replayRefusal { throw .badTape(refusal) }
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
                log.values.append(Tape.Emission(output: output, value: current, afterSteps: 0))
            }
            if let watch = try? instance.observe(output: output, { value in
                log.values.append(Tape.Emission(output: output, value: value, afterSteps: log.steps))
            }) {
                watches.append(watch)
            }
        }
        host.deliverHeldEvents()
        scheduler.advance()

        var divergence: String? = nil
        for (index, step) in tape.steps.enumerated() {
            log.steps = index + 1  // what the step emits counts as after it, as in the tape
            let object = step.object
            switch step {
            case .input:
                do {
                    try instance.send(input: object["input"]?.stringValue ?? "", value: object["value"])
                } catch {
                    if divergence == nil { divergence = "\(tape.describeStep(index)) failed: \(error)\n  expected: accepted" }
                }
                scheduler.advance()
            case .output:
                continue  // `steps` holds inputs and actions only
            case .action:
                let box = OutcomeBox()
                do {
                    let running = try instance.execute(action: object["action"]?.stringValue ?? "", value: object["value"]) {
                        box.result = $0
                    }
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
                case .failure(let error)?: got = ["error": ["name": .string(error.name)]]
                case nil: got = ["error": ["name": "noOutcome"]]
                }
                let expected = object["outcome"]?.objectValue ?? [:]
                if divergence == nil, !Tape.sameOutcome(expected, got) {
                    divergence = "\(tape.describeStep(index)) had another outcome\n  expected: \(JSONValue.object(expected).encodedString())\n  got:      \(JSONValue.object(got).encodedString())"
                }
            }
        }
        scheduler.start()
        if let divergence { throw .divergence(divergence) }
        if let divergence = tape.firstOutputDivergence(log.values) { throw .divergence(divergence) }
    }

    /// What the watched outputs emitted, and how many steps had been performed by then.
    private final class EmittedLog {
        var values: [Tape.Emission] = []
        var steps = 0
    }

    /// An action's outcome, once known.
    private final class OutcomeBox {
        var result: Result<JSONValue, ViewModelError>?
    }
}
