import JSONCore
import JSONRPC
import Testing

@Suite("Request ids are echoed exactly")
struct IDEchoTests {
    static let ids: [String] = [
        "1", "0", "-7", "9223372036854775807", "1.50", "1e3", "1E+03", "-0", "0.0", "12345678901234567890",
        "1.0000000000000000001", #""abc""#, #""\u00e9 \"q\"""#, #""""#, "null",
    ]

    @Test("the reply carries the id's exact text", arguments: ids)
    func echoesIDText(_ idText: String) throws {
        for spacing in ["", " "] {
            let frame = #"{"method":"m","# + spacing + #""id":"# + spacing + idText + spacing + #","jsonrpc":"2.0"}"#
            guard case .single(.message(.request(let request))) = JSONRPCDecoder.decode(Array(frame.utf8)) else {
                Issue.record("not a request: \(frame)"); continue
            }
            var reply: [UInt8] = []
            JSONRPCEncoder.appendSuccess(id: request.id, result: true, to: &reply)
            let expectedID: String
            if case .string(let text) = request.id {
                expectedID = JSONValue.string(text).encodedString()
                #expect(try JSONValue(parsing: idText) == .string(text))
            } else {
                expectedID = idText
            }
            #expect(String(decoding: reply, as: UTF8.self) == #"{"jsonrpc":"2.0","id":"# + expectedID + #","result":true}"#)
        }
    }

    @Test("number ids inside a batch keep their text, element by element")
    func batchIDs() {
        let frame = #"[{"jsonrpc":"2.0","id":1.50,"method":"a"}, {"x":{"id":2.0},"jsonrpc":"2.0","id":2.50,"method":"b"},{"jsonrpc":"2.0","id":3e0,"id":4e0,"method":"c"}]"#
        guard case .batch(let entries) = JSONRPCDecoder.decode(Array(frame.utf8)) else { Issue.record("not a batch"); return }
        let ids = entries.compactMap { entry -> String? in
            if case .message(.request(let request)) = entry { return request.id.description }
            return nil
        }
        #expect(ids == ["1.50", "2.50", "4e0"])
    }

    @Test("ids match cancel requests by value")
    func matchesByValue() {
        #expect(RequestID.numberLiteral("1.50").matches(1.5))
        #expect(RequestID.integer(3).matches(3.0))
        #expect(!RequestID.integer(3).matches("3"))
        #expect(RequestID.string("3").matches("3"))
        #expect(RequestID.null.matches(nil))
        #expect(RequestID(JSONValue.double(2.5)) == .numberLiteral("2.5"))
        #expect(RequestID(JSONValue.bool(true)) == nil)
    }
}
