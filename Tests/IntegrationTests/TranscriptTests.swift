import JSONCore
import Posix
import Testing
import VMTestSupport

/// Replays the example session of Protocol/PROTOCOL.md §15 against the real daemon, line by
/// line: every `>` line is sent, then exactly the `<` lines that follow it are read and compared
/// as JSON. What the protocol leaves open is masked: daemon.info's per-run values, vm.types'
/// wording (the catalog's), and error messages (programs use code and data).
@Suite("The PROTOCOL.md example session against the real vmd")
struct TranscriptTests {
    @Test("every reply and notification of the example session arrives, in order, as written")
    func exampleSession() throws {
        let steps = try Self.transcript()
        #expect(steps.count > 20)
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: directory.socketPath)
        defer { client.close() }
        // The readiness probe's connection may not be reaped yet; the session reports
        // "connections": 1, so wait (bounded) until this is the only one.
        #expect(try Waiting.until {
            try client.sendLine(#"{"jsonrpc":"2.0","id":"settle","method":"daemon.info"}"#)
            return try client.readMessage()["result"]?["connections"]?.intValue == 1
        })
        for step in steps {
            try client.sendLine(step.request)
            for expectedText in step.replies {
                let received = try client.readMessage(timeout: .seconds(10))
                let expected = try JSONValue(parsing: expectedText)
                #expect(Self.masked(received) == Self.masked(expected), "after \(step.request)")
            }
        }
    }

    /// `>` lines with the `<` lines that follow each.
    static func transcript() throws -> [(request: String, replies: [String])] {
        let root = FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: #filePath) ?? "") ?? "") ?? ""
        let text = String(decoding: try FileSystem.readFile(root + "/Protocol/PROTOCOL.md"), as: UTF8.self)
        var steps: [(request: String, replies: [String])] = []
        var inside = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("<!-- transcript:begin -->") { inside = true }
            if line.hasPrefix("<!-- transcript:end -->") { inside = false }
            guard inside else { continue }
            if line.hasPrefix("> ") {
                steps.append((String(line.dropFirst(2)), []))
            } else if line.hasPrefix("< "), !steps.isEmpty {
                steps[steps.count - 1].replies.append(String(line.dropFirst(2)))
            }
        }
        return steps
    }

    /// The message with the parts the protocol leaves to the run or the catalog removed.
    static func masked(_ message: JSONValue) -> JSONValue {
        guard case .object(var object) = message else { return message }
        if case .object(var error)? = object["error"] {
            error["message"] = nil
            object["error"] = .object(error)
        }
        if case .object(var params)? = object["params"], case .object(var error)? = params["error"] {
            error["message"] = nil
            params["error"] = .object(error)
            object["params"] = .object(params)
        }
        if case .object(var result)? = object["result"] {
            for volatile in ["version", "bootId", "pid", "uptimeSeconds", "socket"] where result[volatile] != nil {
                result[volatile] = .string("<per run>")
            }
            if case .array(let types)? = result["types"] {
                result["types"] = .array(types.map(maskedType))
            }
            object["result"] = .object(result)
        }
        return .object(object)
    }

    /// A type description reduced to its shape: names, kinds and schemas' types.
    private static func maskedType(_ type: JSONValue) -> JSONValue {
        func names(_ key: String, keeping extra: [String]) -> JSONValue {
            .array((type[key]?.arrayValue ?? []).map { member in
                var kept: JSONObject = ["name": member["name"] ?? .null]
                for name in extra { kept[name] = member[name] }
                return .object(kept)
            })
        }
        return .object([
            "name": type["name"] ?? .null,
            "inputs": names("inputs", keeping: []),
            "outputs": names("outputs", keeping: ["kind"]),
            "actions": names("actions", keeping: []),
        ])
    }
}
