import JSONCore
import VMProtocol

/// What monitors (and so tapes recorded from them, `vmctl record`) never see, beside the
/// session tokens of ``redactingTokens(in:)`` (PROTOCOL.md §18 "Secrecy" and §13).
extension Server {
    /// What a redacted value reads.
    static let redactedText = "<redacted>"

    /// The text a monitor is shown for a frame that does not parse: its bytes (U+FFFD for bad
    /// UTF-8) with every run of 32 or more hex digits replaced by `<redacted>`. Such a frame
    /// cannot be searched for its `"token"` members, so anything that may be a token goes.
    static func monitorText(ofUnparseable frame: UnsafeRawBufferPointer) -> String {
        var shown: [UInt8] = []
        shown.reserveCapacity(frame.count)
        var runStart = 0
        var index = 0
        func endRun() {
            if index - runStart >= 32 {
                shown.append(contentsOf: redactedText.utf8)
            } else {
                shown.append(contentsOf: frame[runStart..<index])
            }
        }
        while index < frame.count {
            if Self.isHexDigit(frame[index]) {
                index += 1
                continue
            }
            endRun()
            shown.append(frame[index])
            index += 1
            runStart = index
        }
        endRun()
        return String(decoding: shown, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// `message` (a received frame, parsed: one message or a batch) with the `value` of every
    /// `vm.send` to a secret input replaced by `"<redacted>"`. An input is secret when its
    /// schema says `"writeOnly": true` (`Input(_:secret:)` in ViewModelKit).
    func redactingSecretInputs(in message: JSONValue) -> JSONValue {
        if case .array(let items) = message { return .array(items.map(redactingSecretInput(inCall:))) }
        return redactingSecretInput(inCall: message)
    }

    private func redactingSecretInput(inCall call: JSONValue) -> JSONValue {
        guard case .object(var object) = call, object["method"]?.stringValue == VMSendMethod.name,
              case .object(var params)? = object["params"], params["value"] != nil,
              let instance = params["instance"]?.stringValue, let input = params["input"]?.stringValue,
              let described = try? host.instance(instance),
              described.type.inputs.contains(where: { $0.name == input && $0.schema["writeOnly"] == true })
        else { return call }
        params["value"] = .string(Self.redactedText)
        object["params"] = .object(params)
        return .object(object)
    }
}
