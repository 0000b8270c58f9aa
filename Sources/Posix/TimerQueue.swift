/// Identifies a scheduled timer so it can be cancelled.
public struct TimerID: Hashable, Sendable {
    let sequence: UInt64
}

/// Deadlines in a binary min-heap, ordered by (deadline, scheduling order), so timers due at
/// the same instant fire in the order they were scheduled. Cancelling removes the callback at
/// once and leaves a tombstone in the heap, dropped when it surfaces or when tombstones
/// outnumber live timers (so a stream of cancelled timeouts cannot grow the heap forever).
struct TimerQueue {
    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var callbacks: [UInt64: () -> Void] = [:]
    private var nextSequence: UInt64 = 0
    /// Cancelled entries still in the heap. While it is zero every entry is live, and the
    /// earliest deadline is the heap's top without looking its callback up.
    private var tombstones = 0

    var count: Int { callbacks.count }

    mutating func schedule(at deadline: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        nextSequence += 1
        let entry = Entry(deadline: deadline, sequence: nextSequence)
        callbacks[entry.sequence] = callback
        heap.append(entry)
        siftUp(heap.count - 1)
        return TimerID(sequence: entry.sequence)
    }

    mutating func cancel(_ id: TimerID) -> Bool {
        guard callbacks.removeValue(forKey: id.sequence) != nil else { return false }
        // A fired timer left the heap before its callback was removed, so this one is in it.
        tombstones += 1
        if heap.count > 64, heap.count > 2 * callbacks.count { rebuild() }
        return true
    }

    /// The earliest live deadline, discarding cancelled entries on the way.
    mutating func nextDeadline() -> UInt64? {
        while let top = heap.first {
            if tombstones == 0 || callbacks[top.sequence] != nil { return top.deadline }
            popTop()
            tombstones -= 1
        }
        return nil
    }

    /// Removes and returns the callback of the earliest timer if it is due at `now` and was
    /// scheduled before `sequenceLimit` (timers added by callbacks wait for the next round).
    mutating func popDue(now: UInt64, sequenceLimit: UInt64) -> (() -> Void)? {
        while let top = heap.first, top.deadline <= now, top.sequence <= sequenceLimit {
            popTop()
            if let callback = callbacks.removeValue(forKey: top.sequence) { return callback }
            tombstones -= 1
        }
        return nil
    }

    var lastSequence: UInt64 { nextSequence }

    /// The top of the heap (live or cancelled): no live timer is due before it.
    var earliestEntryDeadline: UInt64? { heap.first?.deadline }

    // MARK: Heap

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func rebuild() {
        heap.removeAll { callbacks[$0.sequence] == nil }
        tombstones = 0
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            let right = left + 1
            if right < heap.count, heap[right].precedes(heap[left]) { smallest = right }
            guard heap[smallest].precedes(heap[parent]) else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
