import CPosix

/// The C library's heap, as a whole.
public enum Heap {
    /// Gives freed heap memory back to the kernel (glibc's `malloc_trim(0)`): after a burst, a
    /// long-running process otherwise keeps its peak resident size forever, because freed
    /// blocks stay in the allocator's arenas. Returns whether anything was released; does
    /// nothing (and returns `false`) where the C library has no such call.
    ///
    /// It walks every arena, so call it rarely (the daemon does, once idle after a burst).
    @discardableResult
    public static func trim() -> Bool {
        cposix_trim_heap() == 1
    }
}
