/// The scratch stack the parser collects container members and elements in.
///
/// Each object or array pushes its members above those of its enclosing containers; when it
/// closes, they are *moved* (not copied) into an exactly sized array in one allocation. A
/// plain Array as the stack cost a copy plus a destroy per member and a `removeSubrange`
/// per container; this manages its own memory instead.
/// Non-copyable, so the memory has exactly one owner and `deinit` frees it (also when a
/// parse fails midway with members still on the stack).
struct ParseStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>? = nil
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit {
        if let base {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        guard let base else { preconditionFailure("ParseStack.grow left no storage") }
        (base + count).initialize(to: element)
        count += 1
    }

    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// The element at `index` (< `count`).
    subscript(index: Int) -> Element {
        get {
            guard let base, index >= 0, index < count else { preconditionFailure("ParseStack index out of range") }
            return base[index]
        }
        set {
            guard let base, index >= 0, index < count else { preconditionFailure("ParseStack index out of range") }
            base[index] = newValue
        }
    }

    /// Moves the elements from `start` to the top into a new array and pops them.
    mutating func popArray(from start: Int) -> [Element] {
        let moved = count - start
        guard moved > 0, let base else { return [] }
        // Not `Array(unsafeUninitializedCapacity:)`: it allocates through a stdlib entry point
        // that is not inlinable, so it looks up `_ContiguousArrayStorage<Element>`'s metadata
        // at run time on every call (twice per request).
        // `reserveCapacity` + `append` are inlined and specialized here, so the metadata comes
        // from a cached accessor; appending a moved element costs no retain or release.
        var result: [Element] = []
        result.reserveCapacity(moved)
        for offset in start..<count { result.append((base + offset).move()) }
        count = start
        return result
    }
}
