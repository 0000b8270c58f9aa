import JSONCore
import Testing
import VMProtocol

/// `session.resume`'s optional `received` (PROTOCOL.md §18): what a client says it got on each
/// subscription before its connection was lost.
@Suite("session.resume params carry what the client received")
struct SessionResumeParamsTests {
    @Test("received decodes back from its encoding, in subscription id order, and is left out when nil")
    func receivedRoundTrips() throws {
        let params = SessionResumeMethod.Params(token: "t", received: ["sub-2": 7, "sub-1": 0])
        #expect(params.jsonValue.encodedString() == #"{"token":"t","received":{"sub-1":0,"sub-2":7}}"#)
        #expect(try SessionResumeMethod.Params(params.jsonValue) == params)
        let plain = SessionResumeMethod.Params(token: "t")
        #expect(plain.jsonValue.encodedString() == #"{"token":"t"}"#)
        #expect(try SessionResumeMethod.Params(plain.jsonValue).received == nil)
    }

    @Test("a received seq that is not an integer from 0, or a received that is not an object, is refused")
    func badSeqIsRefused() {
        for bad: JSONValue in [.integer(-1), .string("3"), .null] {
            let json: JSONValue = ["token": "t", "received": .object(JSONObject([("sub-1", bad)]))]
            #expect(throws: WireError.self) { try SessionResumeMethod.Params(json) }
        }
        #expect(throws: WireError.self) { try SessionResumeMethod.Params(["token": "t", "received": [1]]) }
    }
}
