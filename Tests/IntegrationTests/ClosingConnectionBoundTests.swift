import JSONCore
import Posix
import Testing
import VMTestSupport

/// PROTOCOL.md §11: one connection's outbound buffer is bounded in every state, closing
/// included (issue 31, item 1), over the real socket with the real vmd.
@Suite("A closing connection keeps its outbound bound", .offTheCooperativePool)
struct ClosingConnectionBoundTests {
    static let maxOutboundBytes = 4_194_304
    static let maxFrameBytes = 65_536

    @Test("a reader that stopped reading and sent an oversized frame queues no more than maxOutboundBytes while another connection drives outputs")
    func closingReaderStaysBounded() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let process = try DaemonProcess.start(
            socketPath: directory.socketPath,
            arguments: ["--log-level", "debug", "--max-outbound-bytes", "\(Self.maxOutboundBytes)",
                        "--max-frame-bytes", "\(Self.maxFrameBytes)"],
            directory: directory)
        defer { process.stop() }

        let driver = try RPCSession(socketPath: directory.socketPath)
        defer { driver.close() }
        let created = try await driver.result("vm.create", ["type": "Counter", "scope": "connection"])
        let instance = try #require(created["instance"]?.stringValue)

        // The hostile reader: 10 subscriptions to the Counter and 10 monitors, every reply read,
        // then nothing more is read.
        let reader = try SocketClient.connect(path: directory.socketPath)
        defer { reader.close() }
        var requests = ""
        for index in 0..<10 {
            requests += #"{"jsonrpc":"2.0","id":\#(index),"method":"vm.subscribe","params":{"instance":"\#(instance)"}}"# + "\n"
            requests += #"{"jsonrpc":"2.0","id":\#(index + 1000),"method":"daemon.monitor"}"# + "\n"
        }
        try reader.write(Array(requests.utf8))
        var answered = 0
        while answered < 20 {
            let message = try reader.readMessage(timeout: .seconds(20))
            if message["id"] != nil, message["method"] == nil {
                #expect(message["error"] == nil)
                answered += 1
            }
        }
        // Each increment is one output per subscription and eleven messages per monitor for
        // the reader (~30 KB): 60 of them fill its socket (a few hundred KB) and leave well
        // over a megabyte queued in the daemon, still under the bound (its reading goes on).
        let increment = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":""# + instance + #"","input":"increment"}}"#
        try await driver.send(Array(repeating: increment, count: 60).joined(separator: "\n"))
        #expect(try await driver.result("vm.get", ["instance": .string(instance), "output": "count"])["value"] == 60)

        // One frame over maxFrameBytes: the daemon answers limitReached and starts closing; with
        // output still queued, the close lingers (up to 5 s) while the reader reads nothing.
        try reader.sendLine(String(repeating: "x", count: Self.maxFrameBytes + 10_000))
        try waitForLog(process, "frame too large; closing the connection")

        // Meanwhile the driver goes on: 600 increments, ~18 MB more for the closing reader.
        try await driver.send(Array(repeating: increment, count: 600).joined(separator: "\n"))
        #expect(try await driver.result("vm.get", ["instance": .string(instance), "output": "count"])["value"] == 660)

        // The linger gives up on the reader; the log says how much was still queued.
        try waitForLog(process, "gave up writing ")
        let queued = try #require(Self.bytesGivenUp(in: process.log))
        // The bound plus one message (a daemon.message of a vm.output is well under 4 KiB).
        #expect(queued <= Self.maxOutboundBytes + 4_096, "queued \(queued) bytes for a closing connection")
        // The driver is still served.
        #expect(try await driver.result("vm.get", ["instance": .string(instance), "output": "count"])["value"] == 660)
    }

    /// The byte count of the first "gave up writing N bytes" in `log`.
    static func bytesGivenUp(in log: String) -> Int? {
        guard let range = log.range(of: "gave up writing ") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }

    func waitForLog(_ process: DaemonProcess, _ text: String) throws {
        guard Waiting.until(timeout: .seconds(30), interval: .milliseconds(10), { process.log.contains(text) }) else {
            throw DaemonProcessError("no \"\(text)\" in the log:\n" + process.log.suffix(4_000))
        }
    }
}
