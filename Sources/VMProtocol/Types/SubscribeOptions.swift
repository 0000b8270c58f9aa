import JSONCore

/// Which outputs a subscription watches, whether it replays and whether it takes patches
/// (`vm.subscribe`'s `outputs`, `replay` and `patches`, `vm.create`'s `subscribe`).
public struct SubscribeOptions: Sendable, Hashable {
    /// Output names; `nil` means every output of the instance. Duplicates are ignored.
    public var outputs: [String]?
    /// Send the current value of every watched state output first (default `true`).
    public var replay: Bool
    /// Send a new value of a state output as an RFC 6902 `patch` against the previous one
    /// when that is shorter (default `false`; PROTOCOL.md, "Patches").
    public var patches: Bool

    public init(outputs: [String]? = nil, replay: Bool = true, patches: Bool = false) {
        self.outputs = outputs
        self.replay = replay
        self.patches = patches
    }

    /// The options object (a client's side): only the members that differ from the defaults,
    /// so `SubscribeOptions()` is `{}`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        appendMembers(to: &object)
        return .object(object)
    }

    /// Adds the members that differ from the defaults to `object`, in the order `outputs`,
    /// `replay`, `patches`.
    func appendMembers(to object: inout JSONObject) {
        if let outputs { object["outputs"] = .array(outputs.map(JSONValue.string)) }
        if !replay { object["replay"] = false }
        if patches { object["patches"] = true }
    }

    /// Reads `outputs`, `replay` and `patches` from `reader` (params of `vm.subscribe`).
    init(reading reader: ParamsReader) throws(WireError) {
        outputs = try reader.optionalNames("outputs")
        replay = try reader.optionalBool("replay") ?? true
        patches = try reader.optionalBool("patches") ?? false
    }

    /// Reads `vm.create`'s `subscribe` object; errors point inside it (`/subscribe/replay`).
    init(createMember object: JSONObject) throws(WireError) {
        do throws(WireError) {
            let reader = try ParamsReader(.object(object))
            try reader.rejectUnknown(allowed: ["outputs", "replay", "patches"], method: "vm.create's subscribe")
            try self.init(reading: reader)
        } catch {
            throw error.nested(under: "/subscribe")
        }
    }
}

extension WireError {
    /// This `invalidParams` error with its `data.path` (and message) moved under `prefix`.
    func nested(under prefix: String) -> WireError {
        guard code == .invalidParams, case .string(let path)? = data["path"] else { return self }
        var moved = self
        moved.data["path"] = .string(prefix + path)
        moved.message = message.replacingFirst(quoted(path), with: quoted(prefix + path))
        return moved
    }
}

extension String {
    /// This string with the first occurrence of `target` replaced (no Foundation here).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }

    private func range(of target: String) -> Range<String.Index>? {
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) { return start..<index(start, offsetBy: target.count) }
            start = index(after: start)
        }
        return nil
    }
}
