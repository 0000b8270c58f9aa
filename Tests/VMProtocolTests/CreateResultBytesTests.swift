import JSONCore
import Testing
import VMProtocol

@Suite("vm.create result bytes: appendMembers writes what jsonValue encodes")
struct CreateResultBytesTests {
    /// The object `appendMembers` writes, as bytes.
    static func written(_ result: VMCreateMethod.Result) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONObjectWriter.append(to: &bytes) { writer in result.appendMembers(to: &writer) }
        return bytes
    }

    @Test("with and without a subscription, in both scopes, the bytes equal the encoded jsonValue",
          arguments: [
              VMCreateMethod.Result(instance: "counter-1", type: "Counter", scope: .daemon),
              VMCreateMethod.Result(instance: "c1", type: "Counter", scope: .connection, subscription: "sub-7"),
              VMCreateMethod.Result(instance: "a.b:c-d_e", type: "TodoList", scope: .daemon, subscription: "sub-1"),
              VMCreateMethod.Result(instance: "zähler-1", type: "Zähler", scope: .connection),
              VMCreateMethod.Result(instance: "", type: "", scope: .daemon),
              VMCreateMethod.Result(instance: "x\"y", type: "Counter", scope: .daemon),
              VMCreateMethod.Result(instance: "counter-1", type: "Type\\", scope: .connection),
          ])
    func sameBytes(result: VMCreateMethod.Result) {
        #expect(Self.written(result) == result.jsonValue.encodedBytes())
    }

    @Test("strings that need escaping are escaped as the serializer escapes them")
    func escapedStrings() throws {
        let result = VMCreateMethod.Result(instance: "x\"y\\z", type: "T\u{1}ype", scope: .daemon, subscription: "s\nb")
        let bytes = Self.written(result)
        #expect(bytes == result.jsonValue.encodedBytes())
        #expect(try VMCreateMethod.Result(json: JSONValue(parsing: bytes)) == result)
    }

    @Test("members come in the documented order: instance, type, scope, subscription")
    func memberOrder() {
        let result = VMCreateMethod.Result(instance: "i", type: "T", scope: .connection, subscription: "s")
        #expect(String(decoding: Self.written(result), as: UTF8.self)
            == #"{"instance":"i","type":"T","scope":"connection","subscription":"s"}"#)
    }
}
