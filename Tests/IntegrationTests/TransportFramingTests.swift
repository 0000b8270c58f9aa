import Testing
import JSONCore
import VMTestSupport

@Suite("Transport framing (in-process daemon, real socket)", .offTheCooperativePool)
struct TransportFramingTests {
    @Test("an NDJSON line comes back as one line")
    func lineRoundTrip() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"x"}"#)
        #expect(try client.readLine() == #"{"jsonrpc":"2.0","id":1,"method":"x"}"#)
    }

    @Test("several lines in one write are framed one by one, in order")
    func pipelinedLines() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.write(Array("[1]\n[2]\r\n\n  \n[3]\n".utf8))
        #expect(try client.readLine() == "[1]")
        #expect(try client.readLine() == "[2]")
        #expect(try client.readLine() == "[3]")
    }

    @Test("lines drip-fed one byte at a time, and in odd chunks, frame the same", arguments: [[1], [3, 1, 7, 2]])
    func dripFedLines(chunks: [Int]) throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        let messages = [#"{"a":"é"}"#, #"{"b":[1,2,3]}"#, #"{"c":null}"#]
        try client.dripFeed(Array(messages.map { $0 + "\n" }.joined().utf8), chunkSizes: chunks)
        for message in messages {
            #expect(try client.readLine() == message)
        }
    }

    @Test("a connection whose first byte is C speaks LSP framing both ways")
    func lspRoundTrip() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLSP(#"{"jsonrpc":"2.0","id":"é","method":"x"}"#)
        let frame = try client.readLSPFrame()
        // 39 characters, 40 bytes: Content-Length counts bytes, and é is two.
        #expect(frame.header == "Content-Length: 40")
        #expect(frame.body == #"{"jsonrpc":"2.0","id":"é","method":"x"}"#)
    }

    @Test("LSP frames drip-fed one byte at a time, with extra headers, frame the same")
    func dripFedLSP() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        let bodies = [#"{"x":1}"#, #"{"y":"two"}"#]
        var bytes: [UInt8] = []
        for body in bodies {
            bytes += Array("Content-Length: \(body.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\(body)".utf8)
        }
        try client.dripFeed(bytes, chunkSizes: [1])
        for body in bodies {
            #expect(try client.readLSPFrame().body == body)
        }
    }

    @Test("a last line without its newline is still read when the peer finishes writing")
    func lastLineWithoutNewline() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.write(Array(#"{"last":true}"#.utf8))
        try client.finishWriting()
        #expect(try client.readLine() == #"{"last":true}"#)
    }

    @Test("a peer that shuts down its writing side still gets every reply (socat does this)")
    func halfCloseStillAnswered() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        try client.sendLine("[1]")
        try client.sendLine("[2]")
        try client.finishWriting()
        #expect(try client.readLine() == "[1]")
        #expect(try client.readLine() == "[2]")
        client.close()
        #expect(Waiting.until { harness.events.contains("closed c1") })
    }

    @Test("an over-long NDJSON frame gets limitReached with id null, then the connection closes")
    func overlongLineCloses() throws {
        let harness = try ScriptedDaemon { $0.limits.maxFrameBytes = 1000 }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine("[\"" + String(repeating: "a", count: 2000) + "\"]")
        let reply = try client.readMessage()
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"]?.intValue == -31010)
        #expect(reply["error"]?["data"]?["name"]?.stringValue == "limitReached")
        #expect(reply["error"]?["data"]?["limit"]?.stringValue == "maxFrameBytes")
        #expect(reply["error"]?["data"]?["value"]?.intValue == 1000)
        #expect(try client.waitForClose())
        #expect(harness.daemon.log.contains("frame too large"))
    }

    @Test("a frame of exactly maxFrameBytes is accepted")
    func frameAtTheLimit() throws {
        let harness = try ScriptedDaemon { $0.limits.maxFrameBytes = 1000 }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        let exact = "[\"" + String(repeating: "a", count: 996) + "\"]"
        try client.sendLine(exact)
        #expect(try client.readLine() == exact)
    }

    @Test("an LSP Content-Length over the limit is refused from the header, then the connection closes")
    func overlongLSPCloses() throws {
        let harness = try ScriptedDaemon { $0.limits.maxFrameBytes = 1000 }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.write(Array("Content-Length: 5000\r\n\r\n".utf8))
        let frame = try client.readLSPFrame()
        let reply = try JSONValue(parsing: frame.body)
        #expect(reply["error"]?["data"]?["limit"]?.stringValue == "maxFrameBytes")
        #expect(try client.waitForClose())
    }

    @Test("a malformed LSP header gets parseError with id null, then the connection closes")
    func malformedLSPHeader() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.write(Array("Content-Length: twelve\r\n\r\n{}".utf8))
        let reply = try JSONValue(parsing: try client.readLSPFrame().body)
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"]?.intValue == -32700)
        #expect(reply["error"]?["data"]?["name"]?.stringValue == "parseError")
        #expect(try client.waitForClose())
    }
}
