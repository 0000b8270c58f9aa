import Testing
import VMTestSupport

@Suite("Transport robustness: a peer's bytes never crash the daemon")
struct TransportRobustnessTests {
    @Test("random bytes on many connections, in both framings, leave the daemon serving")
    func garbageIsSurvived() throws {
        let harness = try ScriptedDaemon { $0.limits.maxFrameBytes = 4096 }
        defer { harness.stop() }
        var generator = SplitMix(seed: 0x5EED)
        for round in 0..<40 {
            let client = try harness.connect()
            var bytes = (0..<Int(generator.next() % 20_000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 2 == 0 { bytes.insert(UInt8(ascii: "C"), at: 0) }  // half of them speak LSP
            try? client.dripFeed(bytes, chunkSizes: [1, 7, 300, 4096], gap: .zero)
            if round % 3 == 0 { try? client.finishWriting() }
            client.close()
        }
        #expect(Waiting.until { harness.daemon.log.all.filter { $0.contains("connection closed") }.count == 40 })
        let survivor = try harness.connect()
        defer { survivor.close() }
        try survivor.sendLine(#"{"still":"here"}"#)
        #expect(try survivor.readLine() == #"{"still":"here"}"#)
    }
}

/// A small deterministic generator, so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
