// JSON benchmarks: decode + encode of JSON-RPC requests with JSONCore/JSONRPC, against
// Foundation's JSONSerialization measured in the same run (the baseline; only this file of
// the benchmark imports Foundation).
import Foundation
import JSONCore
import JSONRPC

/// A ~110-byte request: the daemon's most common message.
private let smallRequest = #"{"jsonrpc":"2.0","id":42,"method":"vm.send","params":{"instance":"counter-1","input":"increment","value":1}}"#

/// A ~1 KiB request: a form-sized value.
private let largeRequest: String = {
    var fields: [String] = []
    for index in 0..<16 {
        fields.append(#""field\#(index)":{"text":"value number \#(index) é","n":\#(index * 37),"ok":\#(index % 2 == 0)}"#)
    }
    return #"{"jsonrpc":"2.0","id":"req-7","method":"vm.execute","params":{"instance":"form-1","action":"submit","value":{"#
        + fields.joined(separator: ",") + #"},"timeoutMs":5000}}"#
}()

/// Median nanoseconds per call of `body` over several timed rounds.
private func measure(iterations: Int, rounds: Int = 7, _ body: () -> Int) -> (nanoseconds: Double, sink: Int) {
    var samples: [Double] = []
    var sink = 0
    for _ in 0..<max(1, iterations / 10) { sink &+= body() }  // warm-up
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<iterations { sink &+= body() }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(nanoseconds / Double(iterations))
    }
    samples.sort()
    return (samples[samples.count / 2], sink)
}

private func format(_ nanoseconds: Double) -> String {
    let micro = nanoseconds / 1000
    let hundredths = Int((micro * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) µs"
}

private func ratio(_ a: Double, _ b: Double) -> String {
    let tenths = Int((b / a * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)x"
}

private func benchmark(name: String, text: String, iterations: Int) {
    let bytes = Array(text.utf8)
    let data = Data(bytes)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(4096)

    // JSONCore: bytes → JSONValue → bytes.
    let core = measure(iterations: iterations) {
        guard let value = try? JSONValue(parsing: bytes) else { return 0 }
        buffer.removeAll(keepingCapacity: true)
        value.encode(into: &buffer)
        return buffer.count
    }

    // JSONRPC: classify the frame, then write a reply echoing the id and the params.
    let rpc = measure(iterations: iterations) {
        guard case .single(.message(.request(let request))) = JSONRPCDecoder.decode(bytes) else { return 0 }
        buffer.removeAll(keepingCapacity: true)
        JSONRPCEncoder.appendSuccess(id: request.id, result: request.params ?? .null, to: &buffer)
        return buffer.count
    }

    // Foundation: Data → Any → Data.
    let foundation = measure(iterations: max(1, iterations / 8)) {
        guard let object = try? JSONSerialization.jsonObject(with: data),
              let encoded = try? JSONSerialization.data(withJSONObject: object) else { return 0 }
        return encoded.count
    }

    print("\(name) (\(bytes.count) bytes), decode + encode:")
    print("  JSONCore value round trip      \(format(core.nanoseconds))/op   \(ratio(core.nanoseconds, foundation.nanoseconds)) faster than Foundation")
    print("  JSONRPC classify + reply       \(format(rpc.nanoseconds))/op   \(ratio(rpc.nanoseconds, foundation.nanoseconds)) faster than Foundation")
    print("  Foundation JSONSerialization   \(format(foundation.nanoseconds))/op   (baseline)")
    if core.sink == 42, rpc.sink == 42, foundation.sink == 42 { print("") }  // keeps the work observable
}

/// Runs the JSON suite: `vmd-bench json`.
func runJSONBenchmarks() {
    benchmark(name: "small request", text: smallRequest, iterations: 200_000)
    benchmark(name: "1 KiB request", text: largeRequest, iterations: 20_000)
}
