/// The scratch stack the parser collects container members and elements in.
///
/// Each object or array pushes its members above those of its enclosing containers; when it
/// closes, they are *moved* (not copied) into an exactly sized array in one allocation. A
/// plain Array as the stack cost a copy plus a destroy per member and a `removeSubrange`
/// per container; this manages its own memory instead.
/// Non-copyable, so the memory has exactly one owner and `deinit` frees it (also when a
/// parse fails midway with members still on the stack).
///
/// It can start in memory the caller lends (a temporary stack allocation, so that parsing a
/// small value allocates nothing here) and moves to memory of its own once it outgrows it.
struct ParseStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>? = nil
    private(set) var count = 0
    private var capacity = 0
    /// Whether `base` was allocated here (and is freed here), not lent by the caller.
    private var ownsStorage = true

    init() {}

    /// A stack that starts in `lent`: uninitialized memory that outlives the stack and that
    /// the caller frees (the stack leaves it uninitialized when it ends).
    init(startingIn lent: UnsafeMutableBufferPointer<Element>) {
        base = lent.baseAddress
        capacity = base == nil ? 0 : lent.count
        ownsStorage = false
    }

    deinit {
        if let base {
            base.deinitialize(count: count)
            if ownsStorage { base.deallocate() }
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
            if ownsStorage { base.deallocate() }
        }
        base = newBase
        capacity = newCapacity
        ownsStorage = true
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

    /// The index of the first element from `start` to the top that `matches`, read in place.
    func firstIndex(from start: Int, where matches: (borrowing Element) -> Bool) -> Int? {
        guard let base, start >= 0 else { return nil }
        for index in start..<count where matches(base[index]) { return index }
        return nil
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
