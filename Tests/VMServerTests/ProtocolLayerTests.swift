import JSONCore
import Testing
import VMProtocol
import VMTestSupport

@Suite("VMProtocol: codes, params and notification bytes")
struct ProtocolLayerTests {
    @Test("every code has its symbolic name and lies in its documented band")
    func codesAndNames() {
        #expect(VMErrorCode.allCases.count == 24)
        for code in VMErrorCode.allCases {
            #expect(VMErrorCode(name: code.name) == code)
            #expect(VMErrorCode(number: code.number) == code, "\(code.name) shares its number")
            if code == .requestCancelled { continue }  // LSP's -32800, just below JSON-RPC's band
            let inReserved = VMErrorCode.reservedRange.contains(code.number)
            let inApplication = VMErrorCode.applicationRange.contains(code.number)
            #expect(inReserved != inApplication, "\(code) must be in exactly one band")
        }
        #expect(VMErrorCode(number: -31099) == nil)
        #expect(VMErrorCode.requestCancelled.number == -32800)
        #expect(VMErrorCode.permissionDenied.number == -31015)
        #expect(VMErrorCode.unknownSession.number == -31016)
    }

    @Test("an error that is not a wire error becomes internalError")
    func unknownErrorsAreInternal() {
        struct Oops: Error {}
        let wire = WireError(Oops())
        #expect(wire.code == .internalError)
        #expect(wire.data == ["name": "internalError"])
    }

    @Test("params that are not an object are invalid at path \"\"")
    func paramsMustBeAnObject() {
        #expect(throws: WireError.invalidParams(path: "", expected: "object", got: "array")) {
            try VMGetMethod.Params(.array([]))
        }
    }

    @Test("a missing member names its path and says missing")
    func missingMember() async throws {
        let error = try #require(throws: WireError.self) { try VMGetMethod.Params(json(#"{"output":"count"}"#)) }
        #expect(error.data == json(#"{"name":"invalidParams","path":"/instance","expected":"string","got":"missing"}"#).objectValue)
        #expect(error.message == #"Invalid params at "/instance": expected a string, got missing."#)
    }

    @Test("a member of the wrong type names expected and found types")
    func wrongType() async throws {
        let error = try #require(throws: WireError.self) { try VMGetMethod.Params(json(#"{"instance":1,"output":"count"}"#)) }
        #expect(error.message == #"Invalid params at "/instance": expected a string, got integer."#)
        #expect(error.data["got"] == "integer")
    }

    @Test("an unknown member is reported with its path")
    func unknownMember() async throws {
        let error = try #require(throws: WireError.self) {
            try VMSendMethod.Params(json(#"{"instance":"a","input":"b","valu":1}"#))
        }
        #expect(error.code == .invalidParams)
        #expect(error.data["path"] == "/valu")
    }

    @Test("vm.create checks the id pattern, the scope and subscribe's members")
    func createParams() async throws {
        #expect(VMCreateMethod.isValidInstanceID("a.b_c:d-9"))
        #expect(!VMCreateMethod.isValidInstanceID(""))
        #expect(!VMCreateMethod.isValidInstanceID("has space"))
        #expect(!VMCreateMethod.isValidInstanceID(String(repeating: "x", count: 65)))
        let badID = try #require(throws: WireError.self) { try VMCreateMethod.Params(json(#"{"type":"T","id":"a/b"}"#)) }
        #expect(badID.data["path"] == "/id")
        let badScope = try #require(throws: WireError.self) { try VMCreateMethod.Params(json(#"{"type":"T","scope":"forever"}"#)) }
        #expect(badScope.data["path"] == "/scope")
        let badReplay = try #require(throws: WireError.self) {
            try VMCreateMethod.Params(json(#"{"type":"T","subscribe":{"replay":"yes"}}"#))
        }
        #expect(badReplay.data["path"] == "/subscribe/replay")
        #expect(badReplay.message == #"Invalid params at "/subscribe/replay": expected a boolean, got string."#)
        let emptyOutputs = try #require(throws: WireError.self) { try VMSubscribeMethod.Params(json(#"{"instance":"a","outputs":[]}"#)) }
        #expect(emptyOutputs.data["path"] == "/outputs")
        let params = try VMCreateMethod.Params(json(#"{"type":"T","scope":"connection","subscribe":{}}"#))
        #expect(params.scope == .connection)
        #expect(params.subscribe == SubscribeOptions(outputs: nil, replay: true))
    }

    @Test("timeoutMs must be an integer from 1 to 2147483647")
    func timeoutRange() async throws {
        for bad in ["0", "2147483648", "1.5", "\"10\""] {
            let error = try #require(throws: WireError.self) {
                try VMExecuteMethod.Params(json(#"{"instance":"a","action":"b","timeoutMs":"# + bad + "}"))
            }
            #expect(error.data["path"] == "/timeoutMs")
        }
        #expect(try VMExecuteMethod.Params(json(#"{"instance":"a","action":"b","timeoutMs":50}"#)).timeoutMs == 50)
    }

    @Test("a vm.output notification is its prefix, the seq, the value bytes and the tail")
    func outputBytes() {
        let prefix = VMOutputNotification.prefix(subscription: "sub-1", instance: "counter-1", output: "count")
        var buffer: [UInt8] = []
        VMOutputNotification.append(prefix: prefix, seq: 12, encodedValue: Array("7".utf8), replay: false, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self)
            == #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"counter-1","output":"count","seq":12,"value":7}}"#)
        buffer = []
        VMOutputNotification.append(prefix: prefix, seq: 1, encodedValue: Array("5".utf8), replay: true, to: &buffer)
        #expect(json(String(decoding: buffer, as: UTF8.self))["params"]?["replay"] == true)
    }

    @Test("the method table lists every method of openrpc.json")
    func methodTable() async throws {
        let document = try JSONValue(parsing: OpenRPCDocument.text)
        let names = document["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == VMMethods.all)
        let notifications = document["x-notifications"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(notifications == VMMethods.notifications)
    }
}

@Suite("The server's delivered bytes")
struct DeliveredBytesTests {
    @Test("a delivered vm.output is byte for byte VMOutputNotification's encoding, replay or live")
    func sameBytes() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t.q","args":{"start":-7}}"#))
        try await client.request("vm.subscribe", json(#"{"instance":"t.q","outputs":["count"]}"#))
        try await client.notify("vm.send", json(#"{"instance":"t.q","input":"add","value":1234567}"#))
        let prefix = VMOutputNotification.prefix(subscription: "sub-1", instance: "t.q", output: "count")
        var replayed: [UInt8] = [], live: [UInt8] = []
        VMOutputNotification.append(prefix: prefix, seq: 1, encodedValue: Array("-7".utf8), replay: true, to: &replayed)
        VMOutputNotification.append(prefix: prefix, seq: 2, encodedValue: Array("1234560".utf8), replay: false, to: &live)
        let texts = client.sink.texts
        #expect(texts.suffix(2) == [String(decoding: replayed, as: UTF8.self), String(decoding: live, as: UTF8.self)])
    }
}
