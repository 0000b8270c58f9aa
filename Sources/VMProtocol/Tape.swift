import JSONCore

/// A recorded session of one instance: its type and creation arguments, then every input
/// pushed, action executed (with its outcome) and output emitted, in order.
///
/// On disk a tape is NDJSON (Protocol/PROTOCOL.md, "Tapes"; schema Protocol/schemas/tape.json):
/// a header line `{"tape": 3, "type", "args", "recordedAt", "instance", "fromCreation", "dropped", "ids"}`,
/// then one event per line.
///
/// The one reader of the format in Swift: `vmctl record` and `vmctl replay` write and check tapes
/// with it, and ViewModelTesting's `TapePlayer` replays them in-process.
package struct Tape {
    /// The tape format version this package writes: 2 adds the header's `fromCreation` and
    /// `dropped`, and replays that push each input at its recorded `t`; 3 adds the header's
    /// `ids` (``TapeIds``), and is written only for a tape that has them, so a reader of
    /// version 2 refuses a tape it would replay wrongly and reads every other.
    package static let version: Int64 = 3
    /// The version of a tape without `ids`.
    package static let versionWithoutIds: Int64 = 2
    /// The versions this package reads (version 1 tapes still replay, their `t` honoured too).
    package static let readableVersions: ClosedRange<Int64> = 1...3
    /// The most tape the daemon keeps per instance recorded from its creation (`vm.create
    /// {record: true}`), each event counted as its encoded line plus its bookkeeping
    /// (VMServer's TapeRecorder.swift); past it the oldest events go, and the tape says so
    /// (`fromCreation: false`, `dropped`).
    package static let maxRecordedBytes = 1 << 20

    /// The header line, every member kept (so `--update` rewrites it unchanged).
    package var header: JSONObject
    package var events: [Event]

    /// A tape from its header and events.
    package init(header: JSONObject, events: [Event]) {
        self.header = header
        self.events = events
    }

    package var type: String { header["type"]?.stringValue ?? "" }
    package var args: JSONValue? { header["args"].flatMap { $0.isNull ? nil : $0 } }
    /// How many events the recorder dropped from the tape's start (past its bound).
    package var dropped: Int { header["dropped"]?.intValue ?? 0 }

    /// Why this tape cannot be replayed (its start is gone), or `nil`: a replay of a tape whose
    /// first events were dropped would not start from the state they left.
    package var replayRefusal: String? {
        guard dropped > 0 else { return nil }
        return "the recorder dropped the first \(dropped) events of this tape (past its bound of \(Tape.maxRecordedBytes) bytes per instance), so it no longer starts at the instance's creation and cannot be replayed"
    }

    /// One line after the header.
    package enum Event {
        /// `{"event": "input", "t", "input", "value"?, "connection"?}`
        case input(JSONObject)
        /// `{"event": "action", "t", "action", "value"?, "connection"?, "outcome": {"result"} | {"error"}}`
        case action(JSONObject)
        /// `{"event": "output", "t", "output", "value", "replay"?}`
        case output(JSONObject)

        package var object: JSONObject {
            switch self {
            case .input(let object), .action(let object), .output(let object): return object
            }
        }

        /// Inputs and actions are the steps a replay performs; outputs are what it expects.
        package var isStep: Bool {
            if case .output = self { return false }
            return true
        }
    }

    /// Why a file is not a tape; replay exits 2 with it.
    package struct Malformed: Error {
        package var message: String
    }

    /// Reads a tape from its NDJSON text.
    package static func parse(_ text: String) throws(Malformed) -> Tape {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        var numbered: [(Int, Substring)] = []
        for (index, line) in lines.enumerated() where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            numbered.append((index + 1, line))
        }
        guard let first = numbered.first else { throw Malformed(message: "the tape is empty (expected a header line {\"tape\": 1, ...})") }
        let header = try object(first.1, line: first.0)
        guard let version = header["tape"] else {
            throw Malformed(message: "line \(first.0): not a tape header (no \"tape\" version member)")
        }
        guard let number = version.int64Value, Tape.readableVersions.contains(number) else {
            throw Malformed(message: "line \(first.0): unsupported tape version \(version.encodedString()); this reads versions \(Tape.readableVersions.lowerBound) to \(Tape.readableVersions.upperBound)")
        }
        guard let type = header["type"]?.stringValue, !type.isEmpty else {
            throw Malformed(message: "line \(first.0): the header has no \"type\" string")
        }
        var events: [Event] = []
        for (number, line) in numbered.dropFirst() {
            let event = try object(line, line: number)
            func require(_ member: String) throws(Malformed) -> String {
                guard let name = event[member]?.stringValue else {
                    throw Malformed(message: "line \(number): a \(event["event"]?.stringValue ?? "?") event needs a \"\(member)\" string")
                }
                return name
            }
            switch event["event"]?.stringValue {
            case "input":
                _ = try require("input")
                events.append(.input(event))
            case "action":
                _ = try require("action")
                guard let outcome = event["outcome"]?.objectValue,
                      outcome.contains("result") != outcome.contains("error") else {
                    throw Malformed(message: "line \(number): an action event needs \"outcome\": {\"result\": ...} or {\"error\": ...} (is the tape truncated?)")
                }
                events.append(.action(event))
            case "output":
                _ = try require("output")
                guard event.contains("value") else {
                    throw Malformed(message: "line \(number): an output event needs a \"value\"")
                }
                events.append(.output(event))
            case let other:
                throw Malformed(message: "line \(number): unknown event \(other.map { "\"\($0)\"" } ?? "(no \"event\" member)"); expected input, action or output")
            }
        }
        return Tape(header: header, events: events)
    }

    private static func object(_ line: Substring, line number: Int) throws(Malformed) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line.utf8))
        } catch {
            throw Malformed(message: "line \(number): not JSON (\(error)); is the tape truncated?")
        }
        guard let object = value.objectValue else {
            throw Malformed(message: "line \(number): expected a JSON object, found \(value.typeName)")
        }
        return object
    }

    /// The NDJSON text: the header, then one event per line, each line ending in a newline.
    package func text() -> String {
        var text = JSONValue.object(header).encodedString() + "\n"
        for event in events { text += JSONValue.object(event.object).encodedString() + "\n" }
        return text
    }

    /// Per output, the values the tape expects, each with the number of steps before it.
    package func expectations() -> [String: [(value: JSONValue, afterSteps: Int)]] {
        var result: [String: [(value: JSONValue, afterSteps: Int)]] = [:]
        var steps = 0
        for event in events {
            if event.isStep { steps += 1; continue }
            let object = event.object
            let name = object["output"]?.stringValue ?? ""
            result[name, default: []].append((object["value"] ?? .null, steps))
        }
        return result
    }

    /// The steps (inputs and actions), in order.
    package var steps: [Event] { events.filter(\.isStep) }

    /// A one-line description of step `index` (0-based) for diffs: `step 3 (line 5): input increment 2`.
    package func describeStep(_ index: Int) -> String {
        var seen = 0
        for (position, event) in events.enumerated() where event.isStep {
            if seen == index {
                let object = event.object
                let line = position + 2
                switch event {
                case .input:
                    let value = object["value"].map { " " + $0.encodedString() } ?? ""
                    return "step \(index + 1) (line \(line)): input \(object["input"]?.stringValue ?? "?")\(value)"
                default:
                    let value = object["value"].map { " " + $0.encodedString() } ?? ""
                    return "step \(index + 1) (line \(line)): action \(object["action"]?.stringValue ?? "?")\(value)"
                }
            }
            seen += 1
        }
        return "the instance's creation"
    }

    /// `2026-11-23T21:40:06Z` for a time in nanoseconds since the Unix epoch.
    package static func timestamp(nanosecondsSinceEpoch: Int64) -> String {
        let seconds = nanosecondsSinceEpoch / 1_000_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from a day count (the proleptic Gregorian calendar, 400-year eras).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    // MARK: - Comparing a replay with the tape

    /// Whether an action's outcome matches the tape's: results equal; errors equal by their
    /// symbolic name (`data.name` on the wire, `name` in-process; the code follows from the
    /// name), so a reworded message still matches.
    package static func sameOutcome(_ expected: JSONObject, _ got: JSONObject) -> Bool {
        if let error = expected["error"] {
            guard let other = got["error"] else { return false }
            return errorName(error) == errorName(other)
        }
        return got["error"] == nil && expected["result"] == got["result"]
    }

    private static func errorName(_ error: JSONValue) -> JSONValue? {
        error["data"]?["name"] ?? error["name"]
    }

    /// One value an output emitted during a replay, after `afterSteps` steps.
    package struct Emission {
        package var output: String
        package var value: JSONValue
        package var afterSteps: Int

        package init(output: String, value: JSONValue, afterSteps: Int) {
            self.output = output
            self.value = value
            self.afterSteps = afterSteps
        }
    }

    /// The first output whose values differ from the tape's, earliest by step, for a person:
    /// the output, expected versus got, and the step after which they parted; `nil` when every
    /// output emitted exactly the tape's values.
    package func firstOutputDivergence(_ emitted: [Emission]) -> String? {
        outputDivergence(emitted)?.text
    }

    /// ``firstOutputDivergence(_:)`` with the number of steps performed before it: a replay
    /// reports it rather than a later step's other outcome (the earlier divergence is the cause).
    package func outputDivergence(_ emitted: [Emission]) -> (afterSteps: Int, text: String)? {
        let expected = expectations()
        var got: [String: [Emission]] = [:]
        for emission in emitted { got[emission.output, default: []].append(emission) }
        var best: (steps: Int, text: String)? = nil
        for name in Set(expected.keys).union(got.keys).sorted() {
            let want = expected[name] ?? []
            let have = got[name] ?? []
            for index in 0..<max(want.count, have.count) {
                let wanted = index < want.count ? want[index] : nil
                let had = index < have.count ? have[index] : nil
                if let wanted, let had, wanted.value == had.value { continue }
                let steps = min(wanted?.afterSteps ?? Int.max, had?.afterSteps ?? Int.max)
                let cause = steps == 0 || steps == Int.max ? "the instance's creation" : describeStep(steps - 1)
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
        return best.map { (afterSteps: $0.steps, text: $0.text) }
    }
}
