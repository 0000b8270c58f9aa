import Testing
@testable import Posix
#if canImport(Glibc)
import Glibc
#endif

@Suite("Heap prefaulting")
struct HeapPrefaultTests {
    #if canImport(Glibc)
    @Test("the prefault thread maps the pages it is handed without changing a byte")
    func prefaultMapsPagesUnchanged() throws {
        try #require(Heap.startPrefaulting())
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let byteCount = 64 * pageSize
        let address = try #require(PageMemory.allocate(byteCount: byteCount))
        defer { PageMemory.release(address, byteCount: byteCount) }
        // The first page is written before, and must keep its bytes. (Fewer than all pages
        // are resident then; not necessarily one: a kernel may map larger folios on a fault.)
        address.storeBytes(of: 0x5A, toByteOffset: 10, as: UInt8.self)
        #expect(residentPages(address, byteCount, pageSize) < 64)

        #expect(Heap.prefault(UnsafeMutableRawBufferPointer(start: address, count: byteCount)))
        var resident = 0
        for _ in 0..<500 {
            resident = residentPages(address, byteCount, pageSize)
            if resident == 64 { break }
            usleep(10_000)
        }
        #expect(resident == 64)
        #expect(address.load(fromByteOffset: 10, as: UInt8.self) == 0x5A)
        let bytes = UnsafeRawBufferPointer(start: address + pageSize, count: byteCount - pageSize)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test("starting the prefault thread again answers as the first start did")
    func startIsIdempotent() {
        let first = Heap.startPrefaulting()
        #expect(Heap.startPrefaulting() == first)
    }

    private func residentPages(_ address: UnsafeMutableRawPointer, _ byteCount: Int, _ pageSize: Int) -> Int {
        var vector = [UInt8](repeating: 0, count: byteCount / pageSize)
        guard mincore(address, byteCount, &vector) == 0 else { return -1 }
        return vector.reduce(0) { $0 + Int($1 & 1) }
    }
    #endif
}
