import JSONCore
import Testing

@Suite("JSONObjectWriter: keys spelled out in the source")
struct ObjectWriterASCIIKeyTests {
    @Test("key(ascii:) and member(ascii:string:) write what key(_:) and member(_:string:) write, commas included")
    func sameBytes() {
        var ascii: [UInt8] = []
        JSONObjectWriter.append(to: &ascii) { writer in
            writer.member(ascii: "instance", string: "c-1")
            writer.key(ascii: "n")
            writer.buffer += Array("1".utf8)
            writer.member(ascii: "scope", string: "da\"emon")
            writer.member("mixed", integer: 2)
            writer.member(ascii: "", string: "")
        }
        var general: [UInt8] = []
        JSONObjectWriter.append(to: &general) { writer in
            writer.member("instance", string: "c-1")
            writer.key("n")
            writer.buffer += Array("1".utf8)
            writer.member("scope", string: "da\"emon")
            writer.member("mixed", integer: 2)
            writer.member("", string: "")
        }
        #expect(ascii == general)
        #expect(String(decoding: ascii, as: UTF8.self) == #"{"instance":"c-1","n":1,"scope":"da\"emon","mixed":2,"":""}"#)
    }

    @Test("the first member gets no comma")
    func firstMember() {
        var bytes: [UInt8] = []
        JSONObjectWriter.append(to: &bytes) { writer in writer.member(ascii: "a", string: "b") }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":"b"}"#)
    }
}
