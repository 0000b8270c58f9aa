import Foundation
import Testing
import VMProtocol

@Suite("The embedded OpenRPC document")
struct EmbeddedDocumentTests {
    @Test("is byte for byte Protocol/openrpc.json, trailing newline included")
    func embeddedTextEqualsTheFile() throws {
        let file = try ProtocolFiles.bytes("openrpc.json")
        let embedded = Array(OpenRPCDocument.text.utf8)
        #expect(embedded.count == file.count, "stale: run python3 Protocol/generate.py")
        #expect(embedded == file, "stale: run python3 Protocol/generate.py")
        #expect(file.last == UInt8(ascii: "\n"))
        #expect(file.dropLast().last != UInt8(ascii: "\n"), "exactly one trailing newline")
    }

    @Test("parses as one JSON object")
    func embeddedTextParses() throws {
        let data = Data(OpenRPCDocument.text.utf8)
        let object = try JSONSerialization.jsonObject(with: data)
        #expect(object is [String: Any])
    }

    @Test("states the version and protocol level that info.version holds")
    func versionMatchesInfo() throws {
        let document = try ProtocolFiles.document()
        let info = try #require(document["info"] as? [String: Any])
        #expect(document["openrpc"] as? String == "1.3.2")
        #expect(info["title"] as? String == "vmd")
        #expect(info["version"] as? String == OpenRPCDocument.version)
        #expect(OpenRPCDocument.version.split(separator: ".").first == "\(OpenRPCDocument.protocolLevel)")
        #expect(OpenRPCDocument.protocolLevel == 1)
    }
}
