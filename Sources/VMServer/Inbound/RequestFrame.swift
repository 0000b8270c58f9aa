import JSONCore
import JSONRPC
import VMProtocol

/// A request or notification whose envelope was read in one pass straight from its frame's
/// bytes: no ``JSONValue`` tree for the envelope and no classification of it; only its params
/// are built, by the general parser.
///
/// ``read(_:options:)`` accepts only the common shape (`SendFrame.Reader.readRequest`,
/// SendFrame.swift) and returns `nil` for everything else, which then takes the general path
/// (`Server.receive` in Server+Frames.swift), so that every reply and error stays exactly
/// what it was: a frame read here is dispatched as the general path would dispatch it.
///
/// Noncopyable, as ``SendFrame`` is: as a copyable type, the `RequestFrame?` each read returns
/// was destroyed through `Optional`'s generic value witness; now the compiler destroys it
/// directly (~60 instructions fewer per `vm.create` and ~50 per `vm.destroy`,
/// ViewModelDaemon.docc/Performance.md).
struct RequestFrame: ~Copyable {
    /// `nil` for a notification; `.null` for a request whose id is `null`.
    var id: RequestID?
    var method: String
    /// `nil` when omitted or read into ``typed``; otherwise an object or an array.
    var params: JSONValue?
    /// The params of a `vm.create` or `vm.destroy` in their common shape, read straight from the
    /// frame when asked (``read(_:options:yieldingSends:typingParams:knownType:isSend:)``); ``params`` is
    /// then `nil`.
    var typed: TypedParams? = nil

    /// The params a `vm.create` or `vm.destroy` most often has, read without a tree:
    /// `{"type": "<name>"}` alone and `{"instance": "<id>"}`, each string without escapes. They
    /// hold what the methods' `Params.init(_:)` (VMProtocol) makes of the same params; a name the
    /// general path would refuse is not read here.
    enum TypedParams: Equatable {
        /// `vm.create {type}`: `VMCreateMethod.Params(type:)`.
        case create(type: String)
        /// `vm.destroy {instance}`: `VMDestroyMethod.Params(instance:)`.
        case destroy(instance: String)

        /// The params of `method` whose only string member holds `value`; `nil` when the general
        /// path must read them (an empty type, which it refuses; bytes that are not UTF-8).
        ///
        /// A type with the bytes of `knownType` (the type the host created last) is that string,
        /// not a new one.
        init?(_ method: TypedMethod, value: UnsafeBufferPointer<UInt8>, knownType: String? = nil) {
            switch method {
            case .create:
                guard !value.isEmpty else { return nil }
                if let knownType, knownType.utf8.withContiguousStorageIfAvailable({ SendFrame.Reader.equal($0, value) }) == true {
                    self = .create(type: knownType)
                    return
                }
                guard let type = Self.string(value) else { return nil }
                self = .create(type: type)
            case .destroy:
                guard let instance = Self.string(value) else { return nil }
                self = .destroy(instance: instance)
            }
        }

        /// `bytes` as a string, `nil` if they are not UTF-8; ASCII checked inline, as for method
        /// names (SendFrame.swift).
        private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            for byte in bytes where byte >= 0x80 {
                return String(validating: bytes, as: UTF8.self)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The methods whose params may be read into ``TypedParams``.
    enum TypedMethod {
        case create, destroy

        /// The method named by `bytes`, if it is one of them.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            if SendFrame.Reader.equal(bytes, "vm.create") {
                self = .create
            } else if SendFrame.Reader.equal(bytes, "vm.destroy") {
                self = .destroy
            } else {
                return nil
            }
        }

        /// The method's name (the one ``VMProtocol`` spells).
        var name: String {
            switch self {
            case .create: VMCreateMethod.name
            case .destroy: VMDestroyMethod.name
            }
        }
    }

    /// The frame as a request or notification, or `nil` when the general path must read it.
    static func read(_ frame: UnsafeRawBufferPointer, options: JSONParseOptions) -> RequestFrame? {
        var isSend = false
        return read(frame, options: options, yieldingSends: false, isSend: &isSend)
    }

    /// ``read(_:options:)``, except that with `yieldingSends` a frame whose method is `vm.send`
    /// gives `nil` with `isSend` set, as soon as the method is read: the caller then tries
    /// ``SendFrame`` first.
    ///
    /// With `typingParams`, the params of a `vm.create` or `vm.destroy` in their common shape are
    /// read into ``typed`` (``TypedParams``) instead of ``params``; a type with the bytes of
    /// `knownType` is that string.
    static func read(
        _ frame: UnsafeRawBufferPointer, options: JSONParseOptions, yieldingSends: Bool, typingParams: Bool = false,
        knownType: String? = nil, isSend: inout Bool
    ) -> RequestFrame? {
        guard let base = frame.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = SendFrame.Reader(base: base, end: frame.count)
        return reader.readRequest(
            options: options, yieldingSends: yieldingSends, typingParams: typingParams, knownType: knownType, isSend: &isSend)
    }
}
