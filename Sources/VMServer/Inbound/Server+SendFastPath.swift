import JSONCore
import JSONRPC
import VMProtocol
import ViewModelKit

/// The `vm.send` fast path: a plain `vm.send` frame is read in one pass (``SendFrame``) and
/// handled here, skipping the generic tree, the envelope classification, the dispatcher and,
/// for a repeated instance and input, both lookups by name (``SendRoute``). What it answers
/// is what the general path (Server+Frames.swift, Server+Dispatch.swift, Server+Calls.swift)
/// answers for the same frame, byte for byte.
extension Server {
    /// Handles `frame` when it is a plain `vm.send`; `false` leaves it to the general path.
    ///
    /// Not taken while a monitor listens (it reports the parsed message), while shutting down
    /// (`vm.send` then answers `shuttingDown`), or with a `maxDepth` below the frame's depth.
    func receivePlainSend(_ frame: UnsafeRawBufferPointer, on session: Session) -> Bool {
        guard sendRoute.isEnabled, outbox.monitors.isEmpty, !isShuttingDown, parseOptions.maxDepth >= SendFrame.depth,
              var send = SendFrame.read(frame, options: parseOptions, delimitingContainers: sendRoute.delimitsContainers)
        else { return false }
        let instance: ViewModelInstance, input: InputRoute
        if let cached = sendRoute.lookup(instance: send.instance, input: send.input) {
            (instance, input) = cached
        } else {
            // Names that are not UTF-8 are the parser's to reject (a parse error).
            guard let instanceID = String(validating: send.instance, as: UTF8.self),
                  let inputName = String(validating: send.input, as: UTF8.self)
            else { return false }
            do {
                instance = try host.instance(instanceID)
                input = try instance.inputRoute(inputName)
            } catch {
                // A value that is not valid JSON is a parse error first, as on the general path.
                guard send.parseRawValue(options: parseOptions) else { return false }
                fail(Self.call(for: send, on: session), error)
                return true
            }
            // A recorded instance's sends take the general path, which tapes them (never cached
            // here, so a cached route is never a recorded instance's).
            if (instance.attachment as? InstanceRecord)?.recorder != nil { return false }
            sendRoute.store(instance: instance, input: input, instanceName: send.instance, inputName: send.input)
        }
        // An object or array goes to the input's own reader, if it has one and accepts it;
        // else it is parsed (not valid JSON: the general path reports the parse error).
        var readFromBytes = false
        if let raw = send.rawValue {
            readFromBytes = instance.send(input, reading: raw, depth: SendFrame.depth, maxDepth: parseOptions.maxDepth)
            guard readFromBytes || send.parseRawValue(options: parseOptions) else { return false }
        }
        do {
            // Everything the input causes synchronously is queued inside, before the reply (O4).
            if !readFromBytes { try instance.send(input, value: send.value) }
        } catch {
            fail(Self.call(for: send, on: session), error)
            return true
        }
        switch send.id {
        case nil: break
        case .integer(let number)?: outbox.sendSuccess(to: session, id: number, encodedResult: Self.encodedSendResult)
        case let id?: respond(on: session, route: .direct, id: id, .success(VMSendMethod.result))
        }
        return true
    }

    /// ``VMSendMethod/result`` encoded, for replies written in place (SendFastPathTests checks
    /// that the two agree).
    static let encodedSendResult: StaticString = "null"

    /// The ``Call`` the general path would have dispatched for `send` (built only to report a
    /// failure the way the dispatcher does: `vm.error` reads `instance` and `input` from its
    /// params). The names were read as UTF-8 before any failure can happen.
    private static func call(for send: borrowing SendFrame, on session: Session) -> Call {
        var params: JSONObject = [
            "instance": .string(String(decoding: send.instance, as: UTF8.self)),
            "input": .string(String(decoding: send.input, as: UTF8.self)),
        ]
        if let value = send.value { params["value"] = value }
        return Call(session: session, id: send.id, route: send.id == nil ? .none : .direct,
                    method: VMSendMethod.name, params: .object(params))
    }
}
