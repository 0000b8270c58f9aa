import JSONCore
import ReactiveCore
import ReactiveTesting
import ViewModelKit
import VMProtocol

/// Replays a tape in-process, without a daemon, on a `TestScheduler`'s virtual time: the
/// Swift side of `vmctl replay` (the tape format is Protocol/PROTOCOL.md, section 17).
///
/// ```swift
/// var registry = ViewModelRegistry()
/// try registry.register(Counter.self)
/// try await TapePlayer(registry: registry).replay(tape: text)   // throws the first divergence
/// ```
///
/// The instance is built by a `ViewModelHost` from the tape's type and arguments (under the
/// tape's instance id, so ids derived from it replay as recorded), its
/// `context.clock` the scheduler's virtual clock and its service calls tracked, as under a
/// ``ViewModelHarness``; its outputs are watched from creation (state outputs' current values
/// first, as a subscription's replay). Each step happens at its recorded `t` of virtual time,
/// everything due on the way run and settled, so a 1 s pause and a 2 s service take no
/// wall-clock time; an action's outcome is awaited as virtual time runs (its timeout included).
/// After the last step virtual time runs on until nothing is scheduled (at most
/// ``settleHorizon`` past the tape's last event). Then, per output, the sequence of values and
/// each action's outcome are compared with the tape: results equal, errors equal by name.
/// Ids the run makes up (the header's `ids`: a child scene's instance id, a store's id) are
/// matched by place, as `vmctl replay` does (VMProtocol's TapeIds.swift).
public struct TapePlayer {
    /// Why a replay failed.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// The text is not a usable tape (empty, truncated, another version, unknown type,
        /// its start dropped by the recorder).
        case badTape(String)
        /// The view model did something else: the first divergence, expected versus got, and
        /// the step that preceded it; or a service call that never settled.
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
    /// How long, in real time, a service call may run without answering or sleeping on the
    /// virtual clock (a fake awaiting a real socket) before the replay fails naming it.
    public var serviceTimeout: Duration
    /// How far past the tape's last event virtual time runs for work still scheduled.
    public var settleHorizon: Duration = .seconds(60)

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
        let calls = ServiceCallTracker()
        calls.grace = serviceTimeout
        let time = VirtualTimeline(scheduler: scheduler, calls: calls)
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        host.serviceClock = ServiceClock(clock: scheduler.virtualClock, calls: calls)
        let instance: ViewModelInstance
        do {
            // Under the recorded id (nothing else lives in this host): ids derived from it,
            // as a child's `parent.name`, come out as recorded.
            instance = try host.create(type: tape.type, id: tape.header["instance"]?.stringValue, args: tape.args)
        } catch {
            throw .badTape("cannot create a \(tape.type): \(error)")
        }
        let log = EmittedLog(ids: TapeIds(tape: tape))
        var watches: [any Disposable] = []
        defer {
            for watch in watches { watch.dispose() }
            try? host.destroy(instance.id, reason: .destroyed)
        }
        for output in instance.outputNames() {
            if instance.type.outputs.first(where: { $0.name == output })?.kind == .state,
               let current = try? instance.currentValue(output: output) {
                log.append(output: output, value: current)
            }
            if let watch = try? instance.observe(output: output, { value in
                log.append(output: output, value: value)
            }) {
                watches.append(watch)
            }
        }
        host.deliverHeldEvents()
        let origin = scheduler.clock
        func at(_ event: JSONObject) -> TestTime? {
            event["t"]?.int64Value.map { origin + scheduler.ticks(.milliseconds($0)) }
        }
        try await settle(time)

        var divergence: String? = nil
        var divergenceStep = Int.max
        for (index, step) in tape.steps.enumerated() {
            if let due = at(step.object), due > scheduler.clock { try await advance(time, to: due) }
            log.steps = index + 1  // what the step emits counts as after it, as in the tape
            let object = step.object
            switch step {
            case .input:
                do {
                    try instance.send(input: object["input"]?.stringValue ?? "", value: object["value"].map(log.ids.replayed))
                } catch {
                    if divergence == nil {
                        divergence = "\(tape.describeStep(index)) failed: \(error)\n  expected: accepted"
                        divergenceStep = index
                    }
                }
                try await settle(time)
            case .output:
                continue  // `steps` holds inputs and actions only
            case .action:
                let box = OutcomeBox()
                do {
                    let running = try instance.execute(action: object["action"]?.stringValue ?? "", value: object["value"].map(log.ids.replayed)) {
                        box.result = $0
                    }
                    watches.append(running)
                    // The daemon's `timeoutMs` (vm.execute), on virtual time: the execution is
                    // cancelled and answers actionTimedOut.
                    if let timeoutMs = object["timeoutMs"]?.int64Value {
                        watches.append(scheduler.schedule(after: .milliseconds(timeoutMs)) {
                            guard box.result == nil else { return }
                            box.timedOut = true
                            running.dispose()
                        })
                    }
                } catch {
                    box.result = .failure(error)
                }
                try await settle(time)
                while box.result == nil, !box.timedOut, let next = scheduler.nextScheduledTime {
                    try await advance(time, to: next)
                }
                let got: JSONObject
                switch box.result {
                case .success(let value)?:
                    got = ["result": log.ids.recorded(value, port: object["action"]?.stringValue ?? "", expected: object["outcome"]?["result"])]
                case .failure(let error)?: got = ["error": ["name": .string(error.name)]]
                case nil: got = ["error": ["name": .string(box.timedOut ? VMErrorCode.actionTimedOut.name : "noOutcome")]]
                }
                let expected = object["outcome"]?.objectValue ?? [:]
                if divergence == nil, !Tape.sameOutcome(expected, got) {
                    divergence = "\(tape.describeStep(index)) had another outcome\n  expected: \(JSONValue.object(expected).encodedString())\n  got:      \(JSONValue.object(got).encodedString())"
                    divergenceStep = index
                }
            }
        }
        // Work the steps started (a search the user waited for) runs out on virtual time.
        let lastEvent = tape.events.compactMap { at($0.object) }.max() ?? origin
        let horizon = max(lastEvent, scheduler.clock) + scheduler.ticks(settleHorizon)
        while let next = scheduler.nextScheduledTime, next <= horizon {
            try await advance(time, to: next)
        }
        // The earlier of a step's failure and an output's divergence (one before the step was
        // performed caused it).
        if let output = tape.outputDivergence(log.values), output.afterSteps <= divergenceStep || divergence == nil {
            throw .divergence(output.text)
        }
        if let divergence { throw .divergence(divergence) }
    }

    /// Settles `time`; a service call that does not settle fails the replay.
    private func settle(_ time: VirtualTimeline) async throws(Failure) {
        try Self.check(await time.settle(), time)
    }

    /// Moves `time` to `target`; a service call that does not settle fails the replay.
    private func advance(_ time: VirtualTimeline, to target: TestTime) async throws(Failure) {
        try Self.check(await time.advance(to: target), time)
    }

    private static func check(_ stuck: [String]?, _ time: VirtualTimeline) throws(Failure) {
        guard let stuck else { return }
        throw .divergence("after \(time.calls.grace) of real time, service calls still running and not sleeping on the virtual clock: \(stuck.joined(separator: ", "))")
    }

    /// What the watched outputs emitted (its ids read as the tape's), and how many steps had
    /// been performed by then.
    private final class EmittedLog {
        var values: [Tape.Emission] = []
        var steps = 0
        let ids: TapeIds

        init(ids: TapeIds) {
            self.ids = ids
        }

        func append(output: String, value: JSONValue) {
            values.append(Tape.Emission(output: output, value: ids.recorded(output: output, value: value), afterSteps: steps))
        }
    }

    /// An action's outcome, once known.
    private final class OutcomeBox {
        var result: Result<JSONValue, ViewModelError>?
        /// The tape's `timeoutMs` passed first.
        var timedOut = false
    }
}
