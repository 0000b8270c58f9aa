extension JSONPatch {
    /// A patch that turns `old` into `new`: `JSONPatch(from: a, to: b).applied(to: a) == b`.
    ///
    /// The rules (Protocol/PROTOCOL.md, "Patches"):
    /// - objects are compared member by member: `remove` for members that went away,
    ///   a nested patch for members present in both, `add` for new members;
    /// - arrays whose elements (old and new) are all objects with a unique `id` member
    ///   (string or integer) are matched by identity: `remove` for ids that went away,
    ///   `move` and `add` to reach the new order, then a nested patch per element that
    ///   changed in place;
    /// - other arrays keep their common prefix and suffix; the elements in between are
    ///   patched pairwise and the surplus removed or added;
    /// - any other change is a `replace`.
    public init(from old: JSONValue, to new: JSONValue) {
        var operations: [JSONPatchOperation] = []
        JSONPatch.diff(old, new, at: JSONPointer.root, into: &operations, limit: .max)
        self.init(operations)
    }

    /// The same patch, or `nil` as soon as it is known to need more than `maximumOperations`
    /// operations: the diff stops there, so a change that touches everything costs little
    /// when only a short patch is worth having.
    /// A bound below 1 gives `nil` at once, without comparing anything.
    public init?(from old: JSONValue, to new: JSONValue, maximumOperations: Int) {
        guard maximumOperations >= 1 else { return nil }
        var operations: [JSONPatchOperation] = []
        JSONPatch.diff(old, new, at: JSONPointer.root, into: &operations, limit: maximumOperations)
        guard operations.count <= maximumOperations else { return nil }
        self.init(operations)
    }

    /// The fewest bytes one encoded operation takes (`{"op":"remove","path":""}` and a comma),
    /// so that a patch of `n` operations is at least `n * minimumOperationBytes` long.
    public static let minimumOperationBytes = 26

    static func diff(_ old: JSONValue, _ new: JSONValue, at pointer: JSONPointer, into operations: inout [JSONPatchOperation], limit: Int) {
        switch (old, new) {
        case let (.object(before), .object(after)):
            diffObjects(before, after, at: pointer, into: &operations, limit: limit)
        case let (.array(before), .array(after)):
            // No whole-array equality check first: the rules below compare element by element
            // anyway, and a long list that changed would be walked twice.
            if before.count == after.count, diffInPlace(before, after, at: pointer, into: &operations, limit: limit) {
                return
            }
            if let beforeIDs = identities(before), let afterIDs = identities(after) {
                diffByIdentity(before, beforeIDs, after, afterIDs, at: pointer, into: &operations, limit: limit)
            } else {
                diffByPosition(before, after, at: pointer, into: &operations, limit: limit)
            }
        default:
            // Scalars (and a change of kind). Equality is JSON's (1 == 1.0), so a number that
            // only changed representation is left alone.
            if old != new { operations.append(.replace(path: pointer, value: new)) }
        }
    }

    private static func diffObjects(_ before: JSONObject, _ after: JSONObject, at pointer: JSONPointer, into operations: inout [JSONPatchOperation], limit: Int) {
        for (key, _) in before where !after.contains(key) {
            if operations.count > limit { return }
            operations.append(.remove(path: pointer.appending(key)))
        }
        for (key, value) in after {
            // Compared before the pointer is built: most members of a big value are unchanged.
            if operations.count > limit { return }
            if let previous = before[key], previous != value {
                diff(previous, value, at: pointer.appending(key), into: &operations, limit: limit)
            }
        }
        for (key, value) in after where !before.contains(key) {
            operations.append(.add(path: pointer.appending(key), value: value))
        }
    }

    /// The common case of a long list, one element changed in place: when every changed
    /// element keeps its `id` (or both lack one) at the same position, matching by identity
    /// and by position agree, so the elements are diffed pairwise without building id sets.
    /// Returns `false`, having added nothing, when some position changed identity.
    private static func diffInPlace(_ before: [JSONValue], _ after: [JSONValue], at pointer: JSONPointer, into operations: inout [JSONPatchOperation], limit: Int) -> Bool {
        let start = operations.count
        for index in before.indices where before[index] != after[index] {
            let same: Bool
            switch (before[index], after[index]) {
            case let (.object(old), .object(new)): same = old["id"] == new["id"]
            default: same = false
            }
            guard same else {
                operations.removeSubrange(start...)
                return false
            }
            if operations.count > limit { return true }
            diff(before[index], after[index], at: pointer.appending(index: index), into: &operations, limit: limit)
        }
        return true
    }

    /// The identity of an element: its `id` member, a string or an integer.
    enum Identity: Hashable {
        case string(String)
        case integer(Int64)
    }

    /// The ids of `elements` when every element is an object with a unique string or integer `id`.
    static func identities(_ elements: [JSONValue]) -> [Identity]? {
        var ids: [Identity] = []
        ids.reserveCapacity(elements.count)
        var seen = Set<Identity>(minimumCapacity: elements.count)
        for element in elements {
            guard case .object(let object) = element else { return nil }
            let id: Identity
            switch object["id"] {
            case .string(let text)?: id = .string(text)
            case .integer(let number)?: id = .integer(number)
            case .double(let number)?:
                guard let exact = JSONValue.exactInteger(number) else { return nil }
                id = .integer(exact)
            default: return nil
            }
            guard seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids
    }

    private static func diffByIdentity(
        _ before: [JSONValue], _ beforeIDs: [Identity], _ after: [JSONValue], _ afterIDs: [Identity],
        at pointer: JSONPointer, into operations: inout [JSONPatchOperation], limit: Int
    ) {
        let kept = Set(afterIDs)
        let start = operations.count
        // 1. Removals, from the back so that earlier indices stay valid.
        var working: [Identity] = []
        var workingValues: [JSONValue] = []
        working.reserveCapacity(beforeIDs.count)
        workingValues.reserveCapacity(beforeIDs.count)
        var removals: [Int] = []
        for (index, id) in beforeIDs.enumerated() {
            if kept.contains(id) {
                working.append(id)
                workingValues.append(before[index])
            } else {
                removals.append(index)
            }
        }
        if removals.count > limit { operations.append(contentsOf: repeatElement(.remove(path: pointer), count: removals.count)); return }
        for index in removals.reversed() {
            operations.append(.remove(path: pointer.appending(index: index)))
        }
        // 2. Reorder. The elements whose relative order is kept are the longest increasing
        //    subsequence of their old positions taken in the new order; they stay put. Every
        //    other element, in the new order, is moved (or added) right after the element
        //    that precedes it in the new order, which is already where it belongs.
        if working != afterIDs {
            let oldPosition = Dictionary(uniqueKeysWithValues: working.enumerated().map { ($0.element, $0.offset) })
            let stable = longestIncreasingRun(afterIDs.compactMap { oldPosition[$0] }).reduce(into: Set<Identity>()) { $0.insert(working[$1]) }
            let reorderingFrom = operations.count
            for (target, id) in afterIDs.enumerated() where !stable.contains(id) {
                var predecessor = -1
                if target > 0 {
                    guard let found = working.firstIndex(of: afterIDs[target - 1]) else { break }
                    predecessor = found
                }
                if let current = working.firstIndex(of: id) {
                    let destination = current < predecessor ? predecessor : predecessor + 1
                    if current != destination {
                        operations.append(.move(from: pointer.appending(index: current), path: pointer.appending(index: destination)))
                        working.insert(working.remove(at: current), at: destination)
                        workingValues.insert(workingValues.remove(at: current), at: destination)
                    }
                } else {
                    operations.append(.add(path: pointer.appending(index: predecessor + 1), value: after[target]))
                    working.insert(id, at: predecessor + 1)
                    workingValues.insert(after[target], at: predecessor + 1)
                }
                // Each step searches the array: past a budget the whole array is cheaper anyway.
                if operations.count - reorderingFrom > 64 + after.count / 8 || operations.count > limit { break }
            }
            guard working == afterIDs else {
                operations.removeSubrange(start...)
                operations.append(.replace(path: pointer, value: .array(after)))
                return
            }
        }
        // 3. Elements present before and after, changed in place.
        for index in after.indices where workingValues[index] != after[index] {
            if operations.count > limit { return }
            diff(workingValues[index], after[index], at: pointer.appending(index: index), into: &operations, limit: limit)
        }
    }

    private static func diffByPosition(_ before: [JSONValue], _ after: [JSONValue], at pointer: JSONPointer, into operations: inout [JSONPatchOperation], limit: Int) {
        var prefix = 0
        let shorter = min(before.count, after.count)
        while prefix < shorter, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, before[before.count - 1 - suffix] == after[after.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = before.count - prefix - suffix
        let newMiddle = after.count - prefix - suffix
        let paired = min(oldMiddle, newMiddle)
        for offset in 0..<paired where before[prefix + offset] != after[prefix + offset] {
            if operations.count > limit { return }
            diff(before[prefix + offset], after[prefix + offset], at: pointer.appending(index: prefix + offset), into: &operations, limit: limit)
        }
        if max(oldMiddle, newMiddle) - paired > limit {
            operations.append(contentsOf: repeatElement(.remove(path: pointer), count: max(oldMiddle, newMiddle) - paired))
            return
        }
        if oldMiddle > newMiddle {
            // Remove the surplus from its end, so that each index is still the one named.
            for offset in stride(from: oldMiddle - 1, through: paired, by: -1) {
                operations.append(.remove(path: pointer.appending(index: prefix + offset)))
            }
        } else {
            for offset in paired..<newMiddle {
                operations.append(.add(path: pointer.appending(index: prefix + offset), value: after[prefix + offset]))
            }
        }
    }

    /// Positions in `sequence` of one longest strictly increasing subsequence (patience sorting,
    /// O(n log n)); the values are returned, in order.
    static func longestIncreasingRun(_ sequence: [Int]) -> [Int] {
        var tails: [Int] = []          // index into `sequence` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: sequence.count)
        for (index, value) in sequence.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if sequence[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(sequence[cursor])
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
