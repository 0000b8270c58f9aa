import Foundation
import JSONCore
import Testing
import VMProtocol
@testable import VMClient

/// VMClient's envelope-free reading of `vm.output` (OutputFrameReader.swift): on the bytes the
/// daemon writes it reads what the general path reads, and it declines everything else.
@Suite("OutputFrameReader")
struct OutputFrameReaderTests {
    /// A notification as the daemon encodes it (VMOutputNotification.swift).
    private static func daemonFrame(_ value: JSONValue, seq: Int64 = 7, replay: Bool = false,
                                    subscription: String = "sub-3", output: String = "count") -> [UInt8] {
        var bytes: [UInt8] = []
        let prefix = VMOutputNotification.prefix(subscription: subscription, instance: "counter-1", output: output)
        VMOutputNotification.append(prefix: prefix, seq: seq, encodedValue: value.encodedBytes(),
                                    replay: replay, to: &bytes)
        return bytes
    }

    /// What the general path makes of the same frame.
    private static func general(_ frame: [UInt8]) throws -> VMOutputEvent {
        let message = try JSONParser.parse(frame)
        return try VMOutputEvent(json: message["params"] ?? .null)
    }

    private static func read(_ frame: [UInt8]) -> VMOutputEvent? {
        frame.withUnsafeBytes { OutputFrameReader.read($0) }
    }

    @Test("the daemon's frames read the same as through the general path",
          arguments: [JSONValue.integer(42), 0, 123_456_789_012_345_678, 1_234_567_890_123_456_789, -3, 2.5, "a \"quoted\" é", true, .null, [1, [2, 3]],
                      ["id": 1, "title": "x}}", "done": false, "replay": true], [:], []])
    func sameAsGeneral(value: JSONValue) throws {
        for replay in [false, true] {
            let frame = Self.daemonFrame(value, replay: replay)
            let fast = try #require(Self.read(frame), "declined \(String(decoding: frame, as: UTF8.self))")
            #expect(fast == (try Self.general(frame)))
            #expect(fast.isReplay == replay)
            #expect(fast.value == value)
        }
    }

    @Test("a patch, escaped or non-ASCII names and malformed frames are left to the general path")
    func declines() {
        var patch: [UInt8] = []
        let prefix = VMOutputNotification.prefix(subscription: "sub-1", instance: "t", output: "items")
        VMOutputNotification.append(prefix: prefix, seq: 2, encodedPatch: Array(#"[{"op":"remove","path":"/0"}]"#.utf8), to: &patch)
        #expect(Self.read(patch) == nil)
        #expect(Self.read(Self.daemonFrame(1, subscription: "sub\"1")) == nil)
        #expect(Self.read(Self.daemonFrame(1, output: "zählung")) == nil)
        let good = Self.daemonFrame(1)
        #expect(Self.read(good) != nil)
        let text = String(decoding: good, as: UTF8.self)
        let malformed = [
            text.replacingOccurrences(of: #""seq":7"#, with: #""seq":07"#),
            text.replacingOccurrences(of: #""seq":7"#, with: #""seq":-7"#),
            text.replacingOccurrences(of: #""value":1"#, with: #""value":1 2"#),
            text.replacingOccurrences(of: #""value":1"#, with: #""value":"#),
            String(text.dropLast()),
            text.replacingOccurrences(of: "vm.output", with: "vm.outpux"),
            text + " ",
        ]
        for frame in malformed {
            #expect(Self.read(Array(frame.utf8)) == nil, "read \(frame)")
        }
    }

    @Test("a frame that differs from the daemon's fixed text in any one byte is left to the general path")
    func declinesEveryChangedFixedByte() throws {
        let good = Self.daemonFrame(12, subscription: "sub-12")
        let text = String(decoding: good, as: UTF8.self)
        var fixed: [Range<Int>] = []
        for part in [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":""#, #"","instance":""#,
                     #"","output":""#, #"","seq":"#, #","value":"#] {
            let range = try #require(text.range(of: part), "no \(part) in \(text)")
            fixed.append(text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                         ..< text.utf8.distance(from: text.startIndex, to: range.upperBound))
        }
        fixed.append((good.count - 2)..<good.count)  // "}}"
        #expect(fixed.first?.lowerBound == 0)
        #expect(Self.read(good) != nil)
        for offset in fixed.joined() {
            var changed = good
            changed[offset] ^= 0x01
            #expect(Self.read(changed) == nil, "read \(String(decoding: changed, as: UTF8.self))")
        }
    }

    @Test("frames of one subscription's output share one names object, found again among many")
    func namesAreShared() throws {
        var names = OutputNameCache()
        func read(_ frame: [UInt8]) throws -> (VMOutputEvent, OutputNames) {
            var result: (VMOutputEvent, OutputNames)?
            let accepted = frame.withUnsafeBytes { bytes in
                OutputFrameReader.read(bytes, names: &names) { event, _ in result = (event, event.sharedNames) }
            }
            #expect(accepted)
            return try #require(result)
        }
        let subscriptions = (1...(OutputNameCache.capacity + 8)).map { "sub-\($0)" }
        for round in 1...3 {
            for subscription in subscriptions {
                for output in ["count", "label"] {
                    let (event, shared) = try read(Self.daemonFrame(.integer(Int64(round)), seq: Int64(round),
                                                                    subscription: subscription, output: output))
                    #expect(event.subscription == subscription)
                    #expect(event.output == output)
                    #expect(event.instance == "counter-1")
                    #expect(event.value == .integer(Int64(round)))
                    #expect(shared.subscription == subscription)
                }
            }
        }
        // More pairs than the cache keeps: every frame is still read right (above); a pair
        // read in turn with one other keeps its names object.
        let a = try read(Self.daemonFrame(1, subscription: "sub-a")).1
        let b = try read(Self.daemonFrame(1, subscription: "sub-b")).1
        for _ in 0..<3 {
            #expect(try read(Self.daemonFrame(2, subscription: "sub-a")).1 === a)
            #expect(try read(Self.daemonFrame(2, subscription: "sub-b")).1 === b)
        }
        #expect(a != b)
        // Names that begin with names seen before are names of their own.
        for (subscription, output) in [("sub-1", "count"), ("sub-1", "counter"), ("sub-12", "count"), ("sub-1", "coun")] {
            let (event, _) = try read(Self.daemonFrame(3, subscription: subscription, output: output))
            #expect(event.subscription == subscription && event.output == output && event.value == 3)
        }
    }

    @Test("an event changed through a copy leaves the original as it was")
    func eventsAreValues() throws {
        let original = try #require(Self.read(Self.daemonFrame(5, subscription: "sub-9")))
        var copy = original
        copy.subscription = "sub-10"
        copy.instance = "other"
        copy.output = "label"
        #expect(original.subscription == "sub-9" && original.instance == "counter-1" && original.output == "count")
        #expect(copy.subscription == "sub-10" && copy.instance == "other" && copy.output == "label")
        #expect(copy != original)
        copy.subscription = "sub-9"
        copy.instance = "counter-1"
        copy.output = "count"
        #expect(copy == original)
        #expect(copy.hashValue == original.hashValue)
    }
}

