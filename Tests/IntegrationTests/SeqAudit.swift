import JSONCore

/// What a subscription's notifications, read in order, say about its seqs.
struct SeqAudit {
    /// Seqs of `vm.output` in arrival order.
    private(set) var delivered: [Int64] = []
    /// Seq ranges skipped without a `vm.overflow` covering them.
    private(set) var uncovered: [ClosedRange<Int64>] = []
    /// Seqs that arrived twice or out of order.
    private(set) var disordered: [Int64] = []
    /// Ranges announced by `vm.overflow`.
    private(set) var overflows: [ClosedRange<Int64>] = []
    /// The last seq accounted for (delivered or covered).
    private(set) var last: Int64 = 0
    /// The last `vm.output` value.
    private(set) var lastValue: JSONValue?

    /// An audit counting from seq 1 (`last` 0), or from what a resumed stream starts with.
    init(last: Int64 = 0) { self.last = last }

    /// The first seq `messages` account for on `subscription` (a `vm.output`'s seq or a
    /// `vm.overflow`'s `from`).
    static func firstAccounted(in messages: [JSONValue], subscription: String) -> Int64? {
        for message in messages where message["params"]?["subscription"]?.stringValue == subscription {
            if message["method"] == "vm.output", let seq = message["params"]?["seq"]?.intValue { return Int64(seq) }
            if message["method"] == "vm.overflow", let from = message["params"]?["lost"]?["from"]?.intValue { return Int64(from) }
        }
        return nil
    }

    /// Follows `messages` (any mix; only `subscription`'s `vm.output` and `vm.overflow` count).
    mutating func follow(_ messages: [JSONValue], subscription: String) {
        for message in messages where message["params"]?["subscription"]?.stringValue == subscription {
            switch message["method"]?.stringValue {
            case "vm.output":
                guard let seq = message["params"]?["seq"]?.intValue.map(Int64.init) else { continue }
                if seq <= last {
                    disordered.append(seq)
                    continue
                }
                if seq > last + 1 { uncovered.append((last + 1)...(seq - 1)) }
                delivered.append(seq)
                last = seq
                lastValue = message["params"]?["value"]
            case "vm.overflow":
                guard let from = message["params"]?["lost"]?["from"]?.intValue.map(Int64.init),
                      let to = message["params"]?["lost"]?["to"]?.intValue.map(Int64.init), from <= to
                else { continue }
                if from <= last {
                    disordered.append(from)
                    continue
                }
                if from > last + 1 { uncovered.append((last + 1)...(from - 1)) }
                overflows.append(from...to)
                last = to
            default:
                continue
            }
        }
    }
}
