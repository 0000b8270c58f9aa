import JSONCore
import Testing
import VMProtocol

/// `VMCreateMethod.Params.init` reads its members in one pass; these cases pin it to what the
/// lookups by name gave: the same params, or the same first error.
@Suite("vm.create params: one pass, the same params and errors as lookups by name")
struct CreateParamsOnePassTests {
    /// The params as the lookups by name read them (the reader's public API, in the order the
    /// initializer used before it read members in one pass).
    static func byLookups(_ params: JSONValue?) throws(WireError) -> VMCreateMethod.Params {
        let reader = try ParamsReader(params)
        try reader.rejectUnknown(allowed: ["type", "id", "args", "scope", "subscribe"], method: VMCreateMethod.name)
        let type = try reader.string("type", nonEmpty: true)
        let id = try reader.optionalString("id")
        if let id, !VMCreateMethod.isValidInstanceID(id) {
            // The id's own error is checked by the initializer itself; reuse it.
            return try VMCreateMethod.Params(.object(["type": .string(type), "id": .string(id)]))
        }
        let args = try reader.optionalObject("args").map(JSONValue.object)
        var scope = InstanceScope.daemon
        if let scopeName = try reader.optionalString("scope") {
            guard let parsed = InstanceScope(rawValue: scopeName) else {
                return try VMCreateMethod.Params(.object(["type": .string(type), "scope": .string(scopeName)]))
            }
            scope = parsed
        }
        _ = try reader.optionalObject("subscribe")
        let subscribe = try VMCreateMethod.Params(params).subscribe
        return VMCreateMethod.Params(type: type, id: id, args: args, scope: scope, subscribe: subscribe)
    }

    static func outcome(_ read: () throws(WireError) -> VMCreateMethod.Params) -> Result<VMCreateMethod.Params, WireError> {
        do throws(WireError) {
            return .success(try read())
        } catch {
            return .failure(error)
        }
    }

    @Test("each case reads to the same params or fails with the same error", arguments: [
        #"{"type":"Counter"}"#,
        #"{"type":"Co\"un ter"}"#,
        #"{"type":null}"#,
        #"{"id":"c-2"}"#,
        #"{"type":"Counter","id":"c-1","args":{"start":3},"scope":"connection","subscribe":{"replay":false}}"#,
        #"{"subscribe":{},"scope":"daemon","args":{},"id":"x","type":"T"}"#,
        #"{}"#,
        #"{"type":""}"#,
        #"{"type":7}"#,
        #"{"type":7,"bogus":1}"#,
        #"{"bogus":1,"type":7}"#,
        #"{"type":"Counter","id":""}"#,
        #"{"type":"Counter","id":"no spaces"}"#,
        #"{"type":"Counter","id":5}"#,
        #"{"type":"Counter","args":[1]}"#,
        #"{"type":"Counter","scope":"process"}"#,
        #"{"type":"Counter","scope":1}"#,
        #"{"type":"Counter","subscribe":true}"#,
        #"{"type":"Counter","subscribe":{"bogus":1}}"#,
        #"{"type":"Counter","args":1,"scope":2}"#,
        #"[1]"#,
        "null",
    ])
    func sameOutcome(text: String) throws {
        let params = try JSONValue(parsing: text)
        let onePass = Self.outcome { () throws(WireError) -> VMCreateMethod.Params in try VMCreateMethod.Params(params) }
        let lookups = Self.outcome { () throws(WireError) -> VMCreateMethod.Params in try Self.byLookups(params) }
        #expect(onePass == lookups)
    }

    @Test("an unknown member is reported even after a member of the wrong type, as before")
    func unknownFirst() {
        let onePass = Self.outcome { () throws(WireError) -> VMCreateMethod.Params in
            try VMCreateMethod.Params(.object(["type": .integer(1), "zzz": .null]))
        }
        #expect(onePass == .failure(WireError.unknownParam("zzz", method: VMCreateMethod.name)))
    }
}
