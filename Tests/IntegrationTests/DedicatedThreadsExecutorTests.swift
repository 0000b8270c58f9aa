import Foundation
import Testing
import VMTestSupport

/// The executor that keeps blocking tests off the cooperative pool
/// (Sources/VMTestSupport/DedicatedThreadsExecutor.swift).
@Suite("Tests off the cooperative pool")
struct DedicatedThreadsExecutorTests {
    private static var dedicated: Bool { OffTheCooperativePool.executor.ownsCurrentThread }

    @Test("a test with the trait runs, and resumes after each await, on the dedicated threads", .offTheCooperativePool)
    func traitMovesTheTest() async throws {
        #expect(Self.dedicated)
        try await Task.sleep(for: .milliseconds(5))
        #expect(Self.dedicated)
        async let child = Self.dedicated
        #expect(await child, "a child task inherits the preference")
    }

    @Test("a test without it runs on the cooperative pool")
    func withoutTheTrait() {
        #expect(!Self.dedicated)
    }

    @Test("jobs beyond the thread bound queue and all run (the queue dropping taken jobs as it goes), on no more threads than the bound")
    func boundedThreads() async {
        let executor = DedicatedThreadsExecutor(maximumThreads: 2)
        let finished = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for _ in 0..<600 {
                group.addTask(executorPreference: executor) {
                    // Hold the thread a little, so later jobs find both busy and queue.
                    Waiting.pause(.milliseconds(1))
                    return executor.ownsCurrentThread
                }
            }
            var count = 0
            for await onExecutor in group where onExecutor { count += 1 }
            return count
        }
        #expect(finished == 600)
        #expect((1...2).contains(executor.threadCount))
    }

    /// What a test file does when it waits for a process to end on the thread it runs on.
    private static let processWaits = #"vmctl\.(run|start)\(|runner\.run\(|\.waitForExit\("#

    @Test("every integration suite that waits for a process carries the trait")
    func blockingSuitesCarryTheTrait() throws {
        let folder = PackageGraphTests.root.appendingPathComponent("Tests/IntegrationTests")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Tests.swift") }
        var waiting: [String] = []
        var missing: [String] = []
        for name in names.sorted() {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            guard source.range(of: Self.processWaits, options: .regularExpression) != nil else { continue }
            waiting.append(name)
            if !source.contains(".offTheCooperativePool") { missing.append(name) }
        }
        #expect(waiting.count >= 10, "the pattern still finds the vmctl and daemon-process suites")
        #expect(missing == [], "these suites wait for processes on the cooperative pool")
    }
}
