import JSONCore
import JSONRPC
import Testing

@Suite("JSON-RPC encoding")
struct EncoderTests {
    func text(_ body: (inout [UInt8]) -> Void) -> String {
        var buffer: [UInt8] = []
        body(&buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test("writes every message kind with a fixed member order")
    func writesMessages() {
        #expect(text { JSONRPCEncoder.appendRequest(id: 1, method: "vm.get", params: ["instance": "c-1"], to: &$0) }
            == #"{"jsonrpc":"2.0","id":1,"method":"vm.get","params":{"instance":"c-1"}}"#)
        #expect(text { JSONRPCEncoder.appendNotification(method: "n", params: nil, to: &$0) } == #"{"jsonrpc":"2.0","method":"n"}"#)
        #expect(text { JSONRPCEncoder.appendSuccess(id: "a", result: nil, to: &$0) } == #"{"jsonrpc":"2.0","id":"a","result":null}"#)
        #expect(text { JSONRPCEncoder.appendFailure(id: .null, error: JSONRPCError(code: .methodNotFound, name: "methodNotFound", message: "no x.y", extra: ["method": "x.y"]), to: &$0) }
            == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"no x.y","data":{"name":"methodNotFound","method":"x.y"}}}"#)
        #expect(text { JSONRPCEncoder.appendFailure(id: 3, error: JSONRPCError(code: -1, message: "m"), to: &$0) }
            == #"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}"#)
    }

    @Test("splices a pre-encoded value into many notifications")
    func splicesPreEncodedValues() {
        let value = (["count": 3] as JSONValue).encodedBytes()
        let out = text { buffer in
            for seq in 1...2 {
                JSONRPCEncoder.appendNotification(method: "vm.output", to: &buffer) { params in
                    params.member("subscription", string: "s1")
                    params.member("output", string: "count")
                    params.rawMember("value", value)
                    params.member("seq", integer: Int64(seq))
                }
                buffer.append(UInt8(ascii: "\n"))
            }
        }
        #expect(out == """
        {"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"s1","output":"count","value":{"count":3},"seq":1}}
        {"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"s1","output":"count","value":{"count":3},"seq":2}}

        """)
    }

    @Test("a success written in place has the bytes of the appended one", arguments: [
        Int64.min, -1_000_000_007, -10, -9, -1, 0, 1, 9, 10, 99, 100, 101, 65_536, 999_999_999_999_999_999, Int64.max,
    ])
    func writtenSuccess(id: Int64) {
        for result: StaticString in ["null", "{}", #"{"a":[1,2]}"#] {
            let count = JSONRPCEncoder.maximumSuccessByteCount(encodedResult: result)
            let written = withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { raw in
                Array(UnsafeRawBufferPointer(rebasing: raw[0..<JSONRPCEncoder.writeSuccess(id: id, encodedResult: result, into: raw)]))
            }
            let resultBytes = Array(UnsafeBufferPointer(start: result.utf8Start, count: result.utf8CodeUnitCount))
            var appended: [UInt8] = []
            JSONRPCEncoder.appendSuccess(id: .integer(id), encodedResult: resultBytes, to: &appended)
            #expect(written == appended)
            #expect(written.count <= count)
        }
    }

    @Test("spliced results and batches")
    func splicedResultsAndBatches() {
        #expect(text { JSONRPCEncoder.appendSuccess(id: 1, encodedResult: Array("[1]".utf8), to: &$0) }
            == #"{"jsonrpc":"2.0","id":1,"result":[1]}"#)
        #expect(text { JSONRPCEncoder.appendSuccess(id: 2, to: &$0) { $0.member("value", .integer(5)) } }
            == #"{"jsonrpc":"2.0","id":2,"result":{"value":5}}"#)
        let parts = [JSONRPCEncoder.encode(.response(JSONRPCResponse(id: 1, result: 1))),
                     JSONRPCEncoder.encode(.response(JSONRPCResponse(id: 2, error: JSONRPCError(code: .requestCancelled, name: "requestCancelled", message: "cancelled"))))]
        #expect(text { JSONRPCEncoder.appendBatch(encodedResponses: parts, to: &$0) }
            == #"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"cancelled","data":{"name":"requestCancelled"}}}]"#)
    }

    static let messages: [JSONRPCMessage] = [
        .request(JSONRPCRequest(id: 7, method: "a", params: [1, "x"])),
        .request(JSONRPCRequest(id: .numberLiteral("1.50"), method: "a")),
        .notification(JSONRPCNotification(method: "$/cancelRequest", params: ["id": 7])),
        .response(JSONRPCResponse(id: "q", result: ["value": [true]])),
        .response(JSONRPCResponse(id: .null, error: JSONRPCError(code: .invalidParams, name: "invalidParams", message: "bad", extra: ["path": "$.x"]))),
    ]

    @Test("every message decodes back to itself", arguments: messages)
    func roundTrips(_ message: JSONRPCMessage) {
        #expect(JSONRPCDecoder.decode(JSONRPCEncoder.encode(message)) == .single(.message(message)))
    }
}
