import JSONCore
import ReactiveCore
import VMProtocol
import ViewModelKit

/// The flight recorder of one instance created with `record: true` (or under `--record-all`):
/// its tape from the creation on, in the file format of Protocol/PROTOCOL.md, "Tapes", each
/// event with `t`, milliseconds since the creation.
///
/// Bounded: the kept events cost at most ``Tape/maxRecordedBytes``, each counted as its encoded
/// line plus ``bookkeepingBytes`` (its array's header and allocation rounding, its slot); past
/// that the oldest events go, and the header says so (`fromCreation: false`, `dropped`).
/// Lives on the instance's ``InstanceRecord`` and goes with it.
final class TapeRecorder {
    private let origin: SchedulerTime
    private let clock: () -> SchedulerTime
    private let maxBytes: Int
    private var header: JSONObject
    /// The encoded lines, oldest first; `lines[start...]` are kept. An action waiting for its
    /// outcome holds an empty line (and its event in `pendingActions`) until it answers.
    private var lines: [[UInt8]] = []
    private var start = 0
    /// Lines removed from the front of `lines` by compaction (so a slot number stays valid).
    private var compacted = 0
    private var pendingActions: [Int: JSONObject] = [:]
    /// The cost of the kept lines: their bytes plus ``bookkeepingBytes`` each.
    private(set) var bytes = 0
    /// What one kept line costs beside its bytes: measured, a 64-byte Counter event adds 124
    /// bytes of the daemon's RSS (a 32-byte array header, malloc's rounding, an 8-byte slot).
    static let bookkeepingBytes = 64
    /// Output observations, disposed with the recorder.
    private var observations: [any Disposable] = []
    /// Inputs whose values a tape shows as `"<redacted>"` (schemas marked `writeOnly`).
    private let secretInputs: Set<String>

    /// Starts recording `instance`, just created from `args`: its state outputs' values now
    /// (`replay: true`, as a subscriber with `replay` sees them), then every value it emits.
    init(instance: ViewModelInstance, args: JSONValue?, clock: @escaping () -> SchedulerTime, maxBytes: Int = Tape.maxRecordedBytes) {
        self.clock = clock
        self.origin = clock()
        self.maxBytes = maxBytes
        let ids = TapeIds.header(
            outputs: instance.type.outputs.map { ($0.name, $0.schema) }, actions: instance.type.actions.map { ($0.name, $0.output) })
        var header: JSONObject = ["tape": .integer(ids == nil ? Tape.versionWithoutIds : Tape.version), "type": .string(instance.typeName)]
        if let args { header["args"] = args }
        header["instance"] = .string(instance.id)
        if let ids { header[TapeIds.headerMember] = ids }
        self.header = header
        self.secretInputs = Set(instance.type.inputs.filter { $0.schema["writeOnly"] == .bool(true) }.map(\.name))
        for output in instance.type.outputs {
            if output.kind == .state, let value = try? instance.currentValue(output: output.name) {
                append(["event": "output", "t": 0, "output": .string(output.name), "value": value, "replay": true])
            }
        }
        for output in instance.type.outputs {
            let name = output.name
            if let observation = try? instance.observe(output: name, { [weak self] value in
                guard let self else { return }
                append(["event": "output", "t": .integer(elapsed()), "output": .string(name), "value": value])
            }) {
                observations.append(observation)
            }
        }
    }

    deinit { stop() }

    /// Stops watching the outputs (the instance is gone); the tape stays readable.
    func stop() {
        for observation in observations { observation.dispose() }
        observations = []
    }

    /// How many events went past the bound.
    var dropped: Int { start + compacted }

    /// Records a `vm.send` about to be delivered; returns its slot (for ``retract(_:)``).
    func input(_ input: String, value: JSONValue?, connection: UInt64) -> Int {
        var event: JSONObject = ["event": "input", "t": .integer(elapsed()), "input": .string(input)]
        if let value { event["value"] = secretInputs.contains(input) ? .string("<redacted>") : value }
        event["connection"] = .integer(Int64(connection))
        return append(event)
    }

    /// Records a `vm.execute` about to start (with its `timeoutMs`, which a replay passes on); its line is written when ``finishAction(_:outcome:)``
    /// gives its outcome, at this place.
    func action(_ action: String, value: JSONValue?, timeoutMs: Int64?, connection: UInt64) -> Int {
        var event: JSONObject = ["event": "action", "t": .integer(elapsed()), "action": .string(action)]
        if let value { event["value"] = value }
        if let timeoutMs { event["timeoutMs"] = .integer(timeoutMs) }
        event["connection"] = .integer(Int64(connection))
        let slot = append(nil)
        pendingActions[slot] = event
        return slot
    }

    /// The action in `slot` answered: `{"result": value}` or `{"error": ErrorObject}`.
    func finishAction(_ slot: Int, outcome: JSONObject) {
        guard var event = pendingActions.removeValue(forKey: slot) else { return }
        event["outcome"] = .object(outcome)
        let line = JSONValue.object(event).encodedBytes()
        lines[slot - compacted] = line
        bytes += line.count
        trim()
    }

    /// The step in `slot` was refused (an unknown input, an invalid value): it never happened.
    func retract(_ slot: Int) {
        pendingActions[slot] = nil
        let index = slot - compacted
        guard index >= start, index < lines.count else { return }
        bytes -= lines[index].count
        lines[index] = []
    }

    /// `{"tape":[header,event,...]}`, the result of `vm.tape`: every kept line that is complete
    /// (an action still running is left out until it answers).
    func encodedResult() -> [UInt8] {
        var header = header
        header["fromCreation"] = .bool(dropped == 0)
        if dropped > 0 { header["dropped"] = .integer(Int64(dropped)) }
        var result = Array(#"{"tape":["#.utf8)
        result.reserveCapacity(bytes + lines.count + 256)
        result.append(contentsOf: JSONValue.object(header).encodedBytes())
        for line in lines[start...] where !line.isEmpty {
            result.append(UInt8(ascii: ","))
            result.append(contentsOf: line)
        }
        result.append(contentsOf: "]}".utf8)
        return result
    }

    // MARK: Internals

    private func elapsed() -> Int64 { (clock() - origin).totalNanoseconds / 1_000_000 }

    /// Appends `event` encoded (`nil`: a placeholder for a running action); returns its slot.
    @discardableResult
    private func append(_ event: JSONObject?) -> Int {
        let line = event.map { JSONValue.object($0).encodedBytes() } ?? []
        lines.append(line)
        bytes += line.count + Self.bookkeepingBytes
        let slot = lines.count - 1 + compacted
        trim()
        return slot
    }

    /// Drops the oldest lines while over the bound, and compacts the array now and then.
    private func trim() {
        while bytes > maxBytes, start < lines.count {
            bytes -= lines[start].count + Self.bookkeepingBytes
            pendingActions[start + compacted] = nil
            lines[start] = []
            start += 1
        }
        if start >= 1024, start * 2 >= lines.count {
            lines.removeFirst(start)
            compacted += start
            start = 0
        }
    }
}
