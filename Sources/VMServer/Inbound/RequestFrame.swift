import JSONCore
import JSONRPC

/// A request or notification whose envelope was read in one pass straight from its frame's
/// bytes: no ``JSONValue`` tree for the envelope and no classification of it; only its params
/// are built, by the general parser.
///
/// ``read(_:options:)`` accepts only the common shape (`SendFrame.Reader.readRequest`,
/// SendFrame.swift) and returns `nil` for everything else, which then takes the general path
/// (`Server.receive` in Server+Frames.swift), so that every reply and error stays exactly
/// what it was: a frame read here is dispatched as the general path would dispatch it.
struct RequestFrame {
    /// `nil` for a notification; `.null` for a request whose id is `null`.
    var id: RequestID?
    var method: String
    /// `nil` when omitted; otherwise an object or an array.
    var params: JSONValue?

    /// The frame as a request or notification, or `nil` when the general path must read it.
    static func read(_ frame: UnsafeRawBufferPointer, options: JSONParseOptions) -> RequestFrame? {
        var isSend = false
        return read(frame, options: options, yieldingSends: false, isSend: &isSend)
    }

    /// ``read(_:options:)``, except that with `yieldingSends` a frame whose method is `vm.send`
    /// gives `nil` with `isSend` set, as soon as the method is read: the caller then tries
    /// ``SendFrame`` first.
    static func read(
        _ frame: UnsafeRawBufferPointer, options: JSONParseOptions, yieldingSends: Bool, isSend: inout Bool
    ) -> RequestFrame? {
        guard let base = frame.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = SendFrame.Reader(base: base, end: frame.count)
        return reader.readRequest(options: options, yieldingSends: yieldingSends, isSend: &isSend)
    }
}
