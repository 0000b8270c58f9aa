import JSONCore
import Testing
import VMProtocol

@Suite("vm.output bytes: VMOutputNotification is their one encoder")
struct OutputNotificationBytesTests {
    static let prefix = VMOutputNotification.prefix(subscription: "sub-1", instance: "t", output: "count")

    /// What `write` produces for `seq` and `value`, through a buffer of exactly the maximum size.
    static func written(seq: Int64, value: [UInt8], replay: Bool = false) -> [UInt8] {
        let maximum = VMOutputNotification.maximumByteCount(prefixBytes: prefix.count, valueBytes: value.count)
        var bytes = [UInt8](repeating: 0, count: maximum)
        let count = bytes.withUnsafeMutableBytes {
            VMOutputNotification.write(prefix: prefix, seq: seq, encodedValue: value, replay: replay, into: $0)
        }
        return Array(bytes[0..<count])
    }

    @Test("every seq is written as JSONSerializer writes integers, at each digit count and both extremes")
    func seqDigits() {
        var seqs: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 65_535, 1_000_000, Int64.max, Int64.min, -1, -10, -12_345]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            seqs += [power - 1, power, power + 1]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 { seqs.append(Int64.random(in: Int64.min...Int64.max, using: &generator)) }
        for seq in seqs {
            var expected = Self.prefix
            JSONSerializer.appendInteger(seq, to: &expected)
            expected += Array(#","value":7}}"#.utf8)
            #expect(Self.written(seq: seq, value: Array("7".utf8)) == expected, "seq \(seq)")
        }
    }

    @Test("append, write and the patch form agree on the bytes, replay tail included")
    func appendMatchesWrite() throws {
        let value = Array(#"{"a":[1,2,"x"]}"#.utf8)
        for replay in [false, true] {
            var appended: [UInt8] = []
            VMOutputNotification.append(prefix: Self.prefix, seq: 42, encodedValue: value, replay: replay, to: &appended)
            #expect(appended == Self.written(seq: 42, value: value, replay: replay))
            let parsed = try JSONValue(parsing: appended)
            #expect(parsed["params"]?["value"] == (try JSONValue(parsing: value)))
            #expect(parsed["params"]?["replay"] == (replay ? true : nil))
        }
        var patch: [UInt8] = []
        VMOutputNotification.append(prefix: Self.prefix, seq: 3, encodedPatch: Array("[]".utf8), to: &patch)
        #expect(String(decoding: patch, as: UTF8.self)
            == #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"t","output":"count","seq":3,"patch":[]}}"#)
    }

    @Test("an integer value written in place gives the bytes of its encoding written as a value, replay tail included")
    func integerValueInPlace() {
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, -100, 123_456_789, Int64.max, Int64.min]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 { values.append(Int64.random(in: Int64.min...Int64.max, using: &generator)) }
        for value in values {
            for replay in [false, true] {
                var encoded: [UInt8] = []
                JSONSerializer.appendInteger(value, to: &encoded)
                let maximum = VMOutputNotification.maximumIntegerByteCount(prefixBytes: Self.prefix.count)
                var bytes = [UInt8](repeating: 0, count: maximum)
                let count = bytes.withUnsafeMutableBytes {
                    VMOutputNotification.write(prefix: Self.prefix, seq: 1_234, integerValue: value, replay: replay, into: $0)
                }
                #expect(Array(bytes[0..<count]) == Self.written(seq: 1_234, value: encoded, replay: replay), "value \(value)")
            }
        }
    }
}
