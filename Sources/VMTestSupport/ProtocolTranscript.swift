import JSONCore
import Posix

/// The example session of Protocol/PROTOCOL.md §15, between `<!-- transcript:begin -->` and
/// `<!-- transcript:end -->`: each `> ` line a client sends, each `< ` line the daemon writes
/// after it.
package struct ProtocolTranscript: Sendable {
    /// One client line and the daemon lines that follow it, in order.
    package struct Exchange: Sendable {
        package let sent: String
        package let expected: [JSONValue]
    }

    package let exchanges: [Exchange]

    /// Reads the transcript from Protocol/PROTOCOL.md in this checkout.
    /// - Throws: when the file or its markers are missing, or a `<` line is not JSON.
    package static func load() throws -> ProtocolTranscript {
        let root = FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: #filePath) ?? "") ?? "") ?? ""
        let text = String(decoding: try FileSystem.readFile(root + "/Protocol/PROTOCOL.md"), as: UTF8.self)
        return try ProtocolTranscript(parsing: text)
    }

    /// Parses the transcript out of a document's `text`.
    package init(parsing text: String) throws {
        var exchanges: [Exchange] = []
        var sent: String?
        var expected: [JSONValue] = []
        var hasBegun = false
        var hasEnded = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !hasBegun {
                hasBegun = line.hasPrefix("<!-- transcript:begin -->")
                continue
            }
            if line.hasPrefix("<!-- transcript:end -->") {
                hasEnded = true
                break
            }
            if line.hasPrefix("> ") {
                if let sent { exchanges.append(Exchange(sent: sent, expected: expected)) }
                sent = String(line.dropFirst(2))
                expected = []
            } else if line.hasPrefix("< "), sent != nil {
                expected.append(try JSONValue(parsing: String(line.dropFirst(2))))
            }
        }
        guard hasEnded else { throw RPCSessionError.missing("no transcript:begin/end markers in PROTOCOL.md") }
        if let sent { exchanges.append(Exchange(sent: sent, expected: expected)) }
        self.exchanges = exchanges
    }

    /// `message` with what depends on the daemon process replaced by a placeholder:
    /// `daemon.info`'s version, bootId, pid, uptimeSeconds and socket. Everything else the
    /// transcript states is compared as written.
    package static func masked(_ message: JSONValue) -> JSONValue {
        guard case .object(var object) = message, case .object(var result)? = object["result"], result["bootId"] != nil else {
            return message
        }
        for key in ["version", "bootId", "pid", "uptimeSeconds", "socket"] where result[key] != nil {
            result[key] = "<per run>"
        }
        object["result"] = .object(result)
        return .object(object)
    }
}
