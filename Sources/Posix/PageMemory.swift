#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory taken straight from the kernel in whole pages (`mmap`) and given back to it at once
/// (`munmap`): for buffers whose peak must not outlive their use. Memory from `malloc` that is
/// freed stays resident in the allocator until a heap trim; these pages leave the process the
/// moment they are released.
public enum PageMemory {
    /// `byteCount` bytes of zeroed, private, read-write memory, or `nil` when the kernel has none.
    public static func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        guard byteCount > 0 else { return nil }
        let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return address
    }

    /// Gives back memory from ``allocate(byteCount:)`` (the same `byteCount`).
    public static func release(_ address: UnsafeMutableRawPointer, byteCount: Int) {
        _ = munmap(address, byteCount)
    }
}
