import JSONCore
import Testing
import VMProtocol

@Suite("vm.progress: the daemon's bytes and the client's reading agree")
struct ProgressNotificationTests {
    @Test("whole counts are written as integers, the request id as it came, optional members only when given")
    func bytes() {
        var buffer: [UInt8] = []
        VMProgressNotification.append(
            request: .string("up"), instance: "s", action: "send", completed: 40, total: 100, message: "uploading", to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self).hasPrefix(
            #"{"jsonrpc":"2.0","method":"vm.progress","params":{"request":"up","instance":"s","action":"send","completed":40,"total":100,"message":"uploading"}}"#))
        buffer = []
        VMProgressNotification.append(request: 7, instance: "s", action: "send", completed: 2.5, total: nil, message: nil, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self).hasPrefix(
            #"{"jsonrpc":"2.0","method":"vm.progress","params":{"request":7,"instance":"s","action":"send","completed":2.5}}"#))
    }

    @Test("a client reads what the daemon writes, with the fraction when the total is known")
    func readsBack() throws {
        var buffer: [UInt8] = []
        VMProgressNotification.append(request: 3, instance: "s", action: "send", completed: 30, total: 120, message: "uploading", to: &buffer)
        let line = String(decoding: buffer, as: UTF8.self).trimmingSuffixNewline
        let params = try #require(try JSONValue(parsing: line)["params"])
        let progress = try VMProgressNotification.Params(json: params)
        #expect(progress == VMProgressNotification.Params(request: 3, instance: "s", action: "send", completed: 30, total: 120, message: "uploading"))
        #expect(progress.fraction == 0.25)
        #expect(VMProgressNotification.Params(request: 3, instance: "s", action: "send", completed: 1).fraction == nil)
        #expect(throws: JSONDecodingError.self) { try VMProgressNotification.Params(json: ["request": 3, "instance": "s", "action": "send"]) }
    }
}

private extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
