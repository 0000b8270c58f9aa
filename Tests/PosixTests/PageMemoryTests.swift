import Posix
import Testing

@Suite("Pages straight from the kernel")
struct PageMemoryTests {
    @Test("allocated pages are zeroed, writable to their last byte, and can be released")
    func allocateWriteRelease() throws {
        let size = 32_768
        let pages = try #require(PageMemory.allocate(byteCount: size))
        let bytes = UnsafeMutableRawBufferPointer(start: pages, count: size)
        #expect(bytes.allSatisfy { $0 == 0 })
        bytes[0] = 1
        bytes[size - 1] = 2
        #expect(bytes[0] == 1 && bytes[size - 1] == 2)
        PageMemory.release(pages, byteCount: size)
    }

    @Test("nothing is allocated for zero bytes")
    func zeroBytes() {
        #expect(PageMemory.allocate(byteCount: 0) == nil)
    }
}
