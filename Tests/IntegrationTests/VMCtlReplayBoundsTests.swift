import Posix
import Testing
import VMTestSupport

/// `vmctl replay`'s bounds against the real vmd (issue 31): what it reads, how long a step may
/// wait, and which failures are a bad tape (exit 2) rather than a divergence (1) or an
/// unreachable daemon (3).
@Suite("vmctl replay: bounded reads, a per-step timeout, and the right exit status", .offTheCooperativePool)
struct VMCtlReplayBoundsTests {
    @Test("/dev/zero and a FIFO are refused at once with exit 2: only a regular file is read")
    func specialFilesAreRefused() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let zero = try fixture.vmctl.run(["replay", "/dev/zero"], timeout: .seconds(10))
        #expect(zero.status == 2, "\(zero)")
        #expect(zero.error.contains("/dev/zero is not a regular file"), "\(zero)")
        let fifo = fixture.directory.path + "/fifo.tape"
        defer { _ = try? FileSystem.remove(fifo) }
        try #require(try ChildProcess.spawn("mkfifo", arguments: ["-m", "600", fifo], searchPath: true).wait() == .exited(0))
        let blocked = try fixture.vmctl.run(["replay", fifo], timeout: .seconds(10))
        #expect(blocked.status == 2, "\(blocked)")
        #expect(blocked.error.contains("fifo.tape is not a regular file"), "\(blocked)")
    }

    @Test("a step whose value is over maxFrameBytes is a bad tape (exit 2), not an unreachable daemon (3)")
    func stepOverMaxFrameBytes() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let big = String(repeating: "x", count: 1_100_000)
        let path = try VMCtlTapeTests.scratchTape(fixture, "big.tape", """
            {"tape":1,"type":"Counter"}
            {"event":"input","t":1,"input":"set","value":"\(big)"}

            """)
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path])
        #expect(replayed.status == 2, "\(replayed.status)")
        #expect(replayed.error.contains("over the daemon's maxFrameBytes (1048576)"), "\(replayed.error.prefix(500))")
    }

    @Test("creation arguments the type refuses are a bad tape (exit 2)")
    func refusedArguments() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let path = try VMCtlTapeTests.scratchTape(fixture, "args.tape", #"{"tape":1,"type":"Counter","args":{"start":"five"}}"# + "\n")
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path])
        #expect(replayed.status == 2, "\(replayed)")
        #expect(replayed.error.contains("bad tape"), "\(replayed)")
        #expect(replayed.error.contains("/start"), "\(replayed)")
    }

    @Test("a step the daemon does not answer within --step-timeout fails with exit 1 naming it")
    func stepTimeout() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let path = try VMCtlTapeTests.scratchTape(fixture, "slow.tape", """
            {"tape":1,"type":"Login","args":{"latencyMs":600000}}
            {"event":"input","t":1,"input":"email","value":"demo@example.com"}
            {"event":"input","t":2,"input":"password","value":"secret"}
            {"event":"action","t":3,"action":"submit","outcome":{"result":"demo@example.com"}}

            """)
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path, "--step-timeout", "0.5"], timeout: .seconds(20))
        #expect(replayed.status == 1, "\(replayed)")
        #expect(replayed.error.contains("action submit got no answer within"), "\(replayed)")
        #expect(replayed.error.contains("--step-timeout"), "\(replayed)")
    }
}
