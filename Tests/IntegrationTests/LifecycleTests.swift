import Posix
import Testing
import VMTestSupport

@Suite("Daemon lifecycle (in-process)", .offTheCooperativePool)
struct LifecycleTests {
    @Test("shutdown tells the handler, flushes what it wrote, closes every connection and removes the socket")
    func gracefulShutdown() throws {
        let harness = try ScriptedDaemon()
        defer { harness.directory.remove() }
        let first = try harness.connect()
        let second = try harness.connect()
        defer { first.close(); second.close() }
        try first.sendLine("[1]")
        #expect(try first.readLine() == "[1]")
        try second.sendLine("\"shutdown\"")
        #expect(try second.readLine() == #"{"stopping":true}"#)
        #expect(try second.readLine() == #"{"bye":true}"#)
        #expect(try first.readLine() == #"{"bye":true}"#)
        #expect(try first.waitForClose())
        #expect(try second.waitForClose())
        #expect(harness.daemon.waitUntilStopped())
        #expect(try FileSystem.info(harness.socketPath) == nil)
        #expect(harness.events.contains("shutdown"))
        #expect(harness.events.contains("closed c1"))
        harness.daemon.stop()
    }

    @Test("with exitWhenIdle the daemon stops once nothing is connected for that long")
    func idleExit() throws {
        let harness = try ScriptedDaemon { $0.exitWhenIdle = .milliseconds(300) }
        defer { harness.directory.remove() }
        let client = try harness.connect()
        try client.sendLine("[1]")
        #expect(try client.readLine() == "[1]")
        // While connected it stays up, however long.
        #expect(!Waiting.until(timeout: .milliseconds(600)) { harness.daemon.isStopped })
        client.close()
        #expect(harness.daemon.waitUntilStopped(timeout: .seconds(10)))
        #expect(harness.daemon.log.contains("--exit-when-idle"))
        #expect(try FileSystem.info(harness.socketPath) == nil)
        harness.daemon.stop()
    }

    @Test("the server may close a connection after its last reply is written")
    func serverCloses() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine("\"close\"")
        #expect(try client.readLine() == "\"closing\"")
        #expect(try client.waitForClose())
    }
}
