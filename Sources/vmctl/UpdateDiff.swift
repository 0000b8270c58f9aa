import JSONCore
import VMProtocol

/// What `vmctl replay --update` changes in a tape, per output: the values it would remove
/// (`-`) and add (`+`), and the outputs whose recorded values it would drop (fewer replayed
/// than recorded), which `--update` refuses without `--force`.
struct UpdateDiff {
    /// One line per change, `output NAME: N recorded, M replayed` then its `-`/`+` lines.
    private(set) var lines: [String] = []
    /// The outputs that would lose recorded values.
    private(set) var dropped: [String] = []

    init(tape: Tape, outputs: [ReplayCommand.Emitted]) {
        let expected = tape.expectations()
        var got: [String: [JSONValue]] = [:]
        for emitted in outputs { got[emitted.output, default: []].append(emitted.value) }
        for name in Set(expected.keys).union(got.keys).sorted() {
            let old = (expected[name] ?? []).map(\.value)
            let new = got[name] ?? []
            guard old != new else { continue }
            lines.append("output \(name): \(old.count) recorded, \(new.count) replayed")
            let common = zip(old, new).prefix(while: { $0 == $1 }).count
            for value in old.dropFirst(common) { lines.append("  - \(value.encodedString())") }
            for value in new.dropFirst(common) { lines.append("  + \(value.encodedString())") }
            if new.count < old.count { dropped.append(name) }
        }
        if lines.isEmpty { lines.append("no output changed") }
    }
}
