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

    /// Starts a helper thread that maps the heap's new pages before the allocating thread
    /// first writes them, so that thread does not take their page faults (CPosix.c, "heap
    /// prefaulting"). The heap here is the C library's main arena: the one the main thread
    /// allocates from, and the only one that grows with the program break.
    ///
    /// A page becomes resident once the heap grew over it, not at its first write: at most
    /// the C library's top pad (128 KiB) plus 256 KiB per ``prefaultGrowth()`` ahead of use.
    /// Once per process (later calls return the first result). Returns whether the thread
    /// runs: `false` where the C library or kernel lacks what it needs (it then also stops on
    /// its own on kernels older than Linux 5.14).
    @discardableResult
    public static func startPrefaulting() -> Bool {
        cposix_heap_prefault_start() == 1
    }

    /// Hands the heap's growth since the last call to the thread ``startPrefaulting()``
    /// started; call it often from the thread that allocates (every few requests). Costs a
    /// comparison when the heap did not grow; does nothing when the thread does not run.
    @inlinable
    public static func prefaultGrowth() {
        cposix_heap_prefault_poke()
    }

    /// Hands `buffer`'s pages to the prefault thread; `false` when it does not run. For tests.
    package static func prefault(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let start = buffer.baseAddress else { return false }
        return cposix_prefault_range(start, buffer.count) == 1
    }
}
