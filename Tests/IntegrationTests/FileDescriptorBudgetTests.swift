import Testing
import VMTestSupport
import VMTransport
import VMProtocol

@Suite("max-connections is clamped to what the open-file limit allows", .offTheCooperativePool)
struct FileDescriptorBudgetTests {
    @Test("the limit minus the reserve, and at least one connection")
    func allowedConnections() {
        #expect(FileDescriptorBudget.maxConnections(openFileLimit: 1024) == 1024 - Int(FileDescriptorBudget.reserve))
        #expect(FileDescriptorBudget.maxConnections(openFileLimit: 128) == 64)
        #expect(FileDescriptorBudget.maxConnections(openFileLimit: 10) == 1)
        #expect(FileDescriptorBudget.maxConnections(openFileLimit: .max) == Int.max)
    }

    @Test("a configured value that fits is kept; one that does not is lowered")
    func clamp() {
        var limits = VMLimits()
        limits.maxConnections = 4096
        #expect(FileDescriptorBudget.clamp(limits, openFileLimit: 1_048_576) == nil)
        #expect(FileDescriptorBudget.clamp(limits, openFileLimit: 1024)?.maxConnections == 960)
        #expect(FileDescriptorBudget.clamp(limits, openFileLimit: 1024)?.maxBatchItems == limits.maxBatchItems)
    }
}
