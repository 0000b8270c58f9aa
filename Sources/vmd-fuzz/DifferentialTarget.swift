import VMServer

/// Fuzzes the agreement of the two ways a frame is served: each input (the requests target's
/// line grammar, RequestTarget.swift) is served twice on fresh servers, once with the one-pass
/// readers (`vm.send` and request envelopes, Server+SendFastPath.swift and RequestFrame.swift)
/// and once with every frame parsed and dispatched by the general path.
///
/// Checked: each connection receives the same bytes in the same order — replies, notifications
/// and errors alike; a final `vm.list` on both makes the instances' state part of the bytes.
/// The one value that depends on when it was asked, `daemon.info`'s `uptimeSeconds`, is
/// compared as `0`.
enum DifferentialTarget {
    /// Appended to every input so that the instances left behind are compared too.
    static let closingLine = Array(#"2>{"jsonrpc":"2.0","id":"differential-final","method":"vm.list"}"#.utf8)

    static func run(_ input: UnsafeRawBufferPointer) {
        var script = Array(input)
        script.append(UInt8(ascii: "\n"))
        script.append(contentsOf: closingLine)
        script.withUnsafeBytes { script in
            let fast = Transcript(), general = Transcript()
            RequestTarget.serve(script, usingFastPaths: true) { TranscriptSink(fast, connection: $0) }
            RequestTarget.serve(script, usingFastPaths: false) { TranscriptSink(general, connection: $0) }
            if let difference = fast.firstDifference(from: general) {
                preconditionFailure("the fast and the general path disagree: \(difference)")
            }
        }
    }
}

/// What the connections of one run received, in order, each message tagged with its connection.
final class Transcript {
    private(set) var messages: [(connection: Int, bytes: [UInt8])] = []

    func append(_ message: UnsafeRawBufferPointer, connection: Int) {
        messages.append((connection, Self.zeroingUptime(Array(message))))
    }

    /// `bytes` with the number after each `"uptimeSeconds":` replaced by `0`.
    static func zeroingUptime(_ bytes: [UInt8]) -> [UInt8] {
        let key = Array(#""uptimeSeconds":"#.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: key) else {
                result.append(bytes[index])
                index += 1
                continue
            }
            result.append(contentsOf: key)
            result.append(UInt8(ascii: "0"))
            index += key.count
            while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}") { index += 1 }
        }
        return result
    }

    /// A description of the first message where `other` differs from this transcript, or `nil`.
    func firstDifference(from other: Transcript) -> String? {
        for index in 0..<max(messages.count, other.messages.count) {
            let mine = index < messages.count ? messages[index] : nil
            let theirs = index < other.messages.count ? other.messages[index] : nil
            if mine?.connection == theirs?.connection, mine?.bytes == theirs?.bytes { continue }
            return "message #\(index + 1): fast \(Self.describe(mine)), general \(Self.describe(theirs))"
        }
        return nil
    }

    private static func describe(_ message: (connection: Int, bytes: [UInt8])?) -> String {
        guard let message else { return "(nothing)" }
        return "on connection \(message.connection): \(String(decoding: message.bytes, as: UTF8.self))"
    }
}

/// A sink that records what the server writes to one connection in a shared ``Transcript``,
/// after the same checks as ``CheckingSink``.
final class TranscriptSink: ConnectionSink {
    private let transcript: Transcript
    private let connection: Int
    var pendingBytes: Int { 0 }

    init(_ transcript: Transcript, connection: Int) {
        self.transcript = transcript
        self.connection = connection
    }

    func enqueue(message: UnsafeRawBufferPointer) {
        CheckingSink.check(message: message)
        transcript.append(message, connection: connection)
    }

    func close() {}
}
