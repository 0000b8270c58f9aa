import JSONCore
import JSONRPC
import Testing

@Suite("JSON-RPC classification")
struct ClassificationTests {
    func decode(_ text: String) -> JSONRPCFrame { JSONRPCDecoder.decode(Array(text.utf8)) }

    @Test("a request, a notification and both kinds of response")
    func validMessages() {
        #expect(decode(#"{"jsonrpc":"2.0","id":1,"method":"vm.get","params":{"a":1}}"#)
            == .single(.message(.request(JSONRPCRequest(id: 1, method: "vm.get", params: ["a": 1])))))
        #expect(decode(#"{"jsonrpc":"2.0","method":"vm.send","params":[1]}"#)
            == .single(.message(.notification(JSONRPCNotification(method: "vm.send", params: [1])))))
        #expect(decode(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#)
            == .single(.message(.request(JSONRPCRequest(id: .null, method: "m")))))
        #expect(decode(#"{"jsonrpc":"2.0","id":"a","result":null}"#)
            == .single(.message(.response(JSONRPCResponse(id: "a", result: nil)))))
        #expect(decode(#"{"jsonrpc":"2.0","id":2,"error":{"code":-31002,"message":"no","data":{"x":1}}}"#)
            == .single(.message(.response(JSONRPCResponse(
                id: 2, error: JSONRPCError(code: -31002, message: "no", data: ["x": 1]))))))
    }

    @Test("invalid JSON is a parse error with id null and the byte offset")
    func parseError() {
        guard case .rejected(let error) = decode(#"{"jsonrpc":"2.0","method":"m","params":[1,]}"#) else {
            Issue.record("not rejected"); return
        }
        #expect(error.code == .parseError)
        #expect(error.data?["name"] == "parseError")
        #expect(error.data?["offset"] == 42)
        #expect(error.message.contains("trailing comma"))
    }

    @Test("a syntax error anywhere wins over an invalid request")
    func parseErrorWinsOverInvalid() {
        guard case .rejected(let error) = decode(#"{"jsonrpc":"1.0","method":1,"#) else { Issue.record("not rejected"); return }
        #expect(error.code == .parseError)
    }

    @Test("an empty batch is a single invalid-request error")
    func emptyBatch() {
        guard case .rejected(let error) = decode("[ ]") else { Issue.record("not rejected"); return }
        #expect(error.code == .invalidRequest)
    }

    static let invalid: [(text: String, id: RequestID, fragment: String)] = [
        (#"{"jsonrpc":"2.0","id":5,"method":1}"#, 5, "\"method\" must be a string"),
        (#"{"jsonrpc":"2.0","id":"x","method":"m","params":"bar"}"#, "x", "\"params\" must be an object or an array"),
        (#"{"jsonrpc":"2.0","id":6,"method":"m","params":3}"#, 6, "\"params\""),
        (#"{"jsonrpc":"1.0","id":7,"method":"m"}"#, 7, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":2.0,"id":8,"method":"m"}"#, 8, "\"jsonrpc\" must be"),
        (#"{"id":9,"method":"m"}"#, 9, "missing \"jsonrpc\""),
        (#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, .null, "\"id\" must be"),
        (#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#, .null, "\"id\" must be"),
        (#"{"jsonrpc":"2.0","id":10}"#, 10, "missing \"method\""),
        (#"{"jsonrpc":"2.0","result":1}"#, .null, "must have an \"id\""),
        (#"{"jsonrpc":"2.0","id":11,"result":1,"error":{"code":1,"message":"m"}}"#, 11, "both"),
        (#"{"jsonrpc":"2.0","id":12,"error":{"code":"x","message":"m"}}"#, 12, "\"error\" must be"),
        ("1", .null, "must be an object"),
        (#""text""#, .null, "must be an object"),
        ("null", .null, "must be an object"),
    ]

    @Test("invalid requests get -32600 with the id when it could be read", arguments: invalid)
    func invalidRequests(_ text: String, _ id: RequestID, _ fragment: String) {
        guard case .single(.invalid(let gotID, let error)) = decode(text) else {
            Issue.record("\(text) → \(decode(text))"); return
        }
        #expect(gotID == id)
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.data?["name"] == "invalidRequest")
    }

    @Test("a batch classifies each element on its own, in order")
    func mixedBatch() {
        let frame = decode(#"[{"jsonrpc":"2.0","id":1,"method":"a"},1,{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":4,"method":2}]"#)
        guard case .batch(let entries) = frame, entries.count == 4 else { Issue.record("\(frame)"); return }
        #expect(entries[0] == .message(.request(JSONRPCRequest(id: 1, method: "a"))))
        #expect(entries[1] == .invalid(id: .null, error: .invalidRequest("a JSON-RPC message must be an object, not integer")))
        #expect(entries[2] == .message(.notification(JSONRPCNotification(method: "n"))))
        guard case .invalid(let id, _) = entries[3] else { Issue.record("\(entries[3])"); return }
        #expect(id == 4)
    }

    @Test("a nested array is one invalid element, not a batch of batches")
    func nestedBatch() {
        guard case .batch(let entries) = decode("[[]]") else { Issue.record("not a batch"); return }
        #expect(entries.count == 1)
        guard case .invalid(.null, let error) = entries[0] else { Issue.record("\(entries[0])"); return }
        #expect(error.code == .invalidRequest)
    }

    @Test("a too-deep frame is a parse error naming the limit")
    func depthLimit() {
        let deep = #"{"jsonrpc":"2.0","method":"m","params":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}"
        let frame = JSONRPCDecoder.decode(Array(deep.utf8), options: JSONParseOptions(maxDepth: 64))
        guard case .rejected(let error) = frame else { Issue.record("\(frame)"); return }
        #expect(error.code == .parseError)
        #expect(error.message.contains("maximum of 64 levels"))
    }

    @Test("error codes are open, and the standard ones lie in JSON-RPC's reserved band")
    func errorCodes() {
        #expect(JSONRPCErrorCode.requestCancelled.rawValue == -32800)
        let custom: JSONRPCErrorCode = -31001
        #expect(custom != .methodNotFound)
        #expect(!JSONRPCErrorCode.reservedRange.contains(custom.rawValue))
        #expect(JSONRPCErrorCode.reservedRange.contains(JSONRPCErrorCode.parseError.rawValue))
    }
}
