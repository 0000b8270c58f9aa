import JSONCore
import JSONRPC
import VMProtocol

/// Frames in, responses out: parsing, batches, classification and reply routing.
extension Server {
    func receive(_ frame: UnsafeRawBufferPointer, on session: Session) {
        if Self.isBlank(frame) { return }
        session.framesReceived &+= 1
        // Frames come in runs: after a plain send the typed reader goes first; after anything
        // else the request reader does (receiveRequestFrame).
        let sendFirst = expectsPlainSend
        if sendFirst {
            if receivePlainSend(frame, on: session) { return }
            expectsPlainSend = false
        }
        if receiveRequestFrame(frame, on: session, yieldingSends: !sendFirst) { return }
        let value: JSONValue
        do {
            value = try JSONParser.parse(frame, options: parseOptions)
        } catch {
            if !outbox.monitors.isEmpty {
                // An unreadable frame is reported as a string holding its text (U+FFFD for bad
                // UTF-8), anything that may be a token redacted (Server+MonitorSecrets.swift).
                outbox.reportReceived(.string(Self.monitorText(ofUnparseable: frame)), on: session)
            }
            let wire = error.kind == .tooDeep ? WireError.limitReached("maxDepth", value: limits.maxDepth) : .parseError(error)
            respond(on: session, route: .direct, id: .null, .failure(wire))
            return
        }
        if !outbox.monitors.isEmpty { outbox.reportReceived(redactingSecretInputs(in: value), on: session) }

        guard case .array(let items) = value else {
            let entry = JSONRPCDecoder.classify(value) { Self.literalID(in: frame, batchIndex: nil) }
            process(entry, on: session, batch: nil)
            return
        }
        guard !items.isEmpty else {
            respond(on: session, route: .direct, id: .null, .failure(.emptyBatch))
            return
        }
        guard items.count <= limits.maxBatchItems else {
            respond(on: session, route: .direct, id: .null, .failure(.limitReached("maxBatchItems", value: limits.maxBatchItems)))
            return
        }
        let batch = BatchReply(session: session)
        for (index, item) in items.enumerated() {
            guard session.isOpen else { return }
            let entry = JSONRPCDecoder.classify(item) { Self.literalID(in: frame, batchIndex: index) }
            if case .message(.request(let request)) = entry, isOverOutboundBound(session, batch) {
                // PROTOCOL.md §11: once the connection's queue and this batch's replies reach
                // maxOutboundBytes, the batch's remaining requests are not run. Without this a
                // never-read batch of 256 `vm.list` queued hundreds of megabytes at once,
                // because the bound is otherwise checked only between frames.
                let refusal = WireError.limitReached("maxOutboundBytes", value: outbox.maxOutboundBytes)
                respond(on: session, route: .batch(batch, slot: batch.reserve()), id: request.id, .failure(refusal))
                continue
            }
            process(entry, on: session, batch: batch)
        }
        if let responses = batch.seal() { writeBatch(responses, on: session) }
    }

    /// Handles `frame` when its envelope reads in one pass (``RequestFrame``): dispatched as the
    /// general path below would dispatch it. `false` leaves it to the general path.
    ///
    /// With `yieldingSends` (the typed `vm.send` reader has not tried this frame), a `vm.send`
    /// is handed to that reader as soon as its method is read, so a run of `vm.create` pays no
    /// failed send read per frame and a run of sends no request read. Not taken while a monitor
    /// listens (it reports the parsed message) or when tests turn the fast paths off
    /// (``SendRoute/isEnabled``).
    private func receiveRequestFrame(_ frame: UnsafeRawBufferPointer, on session: Session, yieldingSends: Bool) -> Bool {
        guard sendRoute.isEnabled, outbox.monitors.isEmpty else { return false }
        var isSend = false
        let yielding = yieldingSends && !isShuttingDown && parseOptions.maxDepth >= SendFrame.depth
        let request = RequestFrame.read(
            frame, options: parseOptions, yieldingSends: yielding, typingParams: true, knownType: host.lastCreatedTypeName,
            isSend: &isSend)
        guard isSend else { return dispatch(request, on: session) }
        if receivePlainSend(frame, on: session) {
            expectsPlainSend = true
            return true
        }
        return dispatch(RequestFrame.read(frame, options: parseOptions), on: session)
    }

    /// Dispatches `request` as the general path would; `false` when there is none. Params read
    /// into ``RequestFrame/typed`` go straight to their method's handler. Inlined into its two
    /// callers: ~40 instructions fewer per `vm.create` and `vm.destroy` in callgrind
    /// (ViewModelDaemon.docc/Performance.md).
    @inline(__always)
    private func dispatch(_ request: consuming RequestFrame?, on session: Session) -> Bool {
        guard let request else { return false }
        let call = Call(session: session, id: request.id, route: request.id == nil ? .none : .direct,
                        method: request.method, params: request.params)
        if let typed = request.typed {
            dispatch(call, typed: typed)
        } else {
            dispatch(call)
        }
        return true
    }

    /// Whether the bytes queued for `session` plus the replies `batch` holds so far reached
    /// `maxOutboundBytes`: then no further request of the batch runs.
    private func isOverOutboundBound(_ session: Session, _ batch: BatchReply) -> Bool {
        session.sink.pendingBytes + batch.producedBytes >= outbox.maxOutboundBytes
    }

    private func process(_ entry: JSONRPCEntry, on session: Session, batch: BatchReply?) {
        func route() -> ReplyRoute {
            guard let batch else { return .direct }
            return .batch(batch, slot: batch.reserve())
        }
        switch entry {
        case .invalid(let id, let error):
            respond(on: session, route: route(), id: id, .failure(.invalidRequest(error.message)))
        case .message(.request(let request)):
            dispatch(Call(session: session, id: request.id, route: route(), method: request.method, params: request.params))
        case .message(.notification(let notification)):
            dispatch(Call(session: session, id: nil, route: .none, method: notification.method, params: notification.params))
        case .message(.response(let response)):
            // The daemon never sends requests, so a response from the client answers nothing.
            respond(on: session, route: route(), id: response.id,
                    .failure(.invalidRequest("the daemon sends no requests, so it takes no responses; send a request or notification")))
        }
    }

    // MARK: Replies

    /// Answers `call` (nothing for a notification).
    func reply(_ call: Call, _ outcome: Result<JSONValue, WireError>) {
        guard let id = call.id else { return }
        respond(on: call.session, route: call.route, id: id, outcome)
    }

    /// Answers `call` with a result that is already encoded.
    func reply(_ call: Call, encodedResult: [UInt8]) {
        guard let id = call.id else { return }
        deliverResponse(on: call.session, route: call.route) { buffer in
            JSONRPCEncoder.appendSuccess(id: id, encodedResult: encodedResult, to: &buffer)
        }
    }

    /// Answers `call` with a result that is the same for every call: for an integer id on the
    /// connection itself (no batch), written straight into the transport's buffer
    /// (``Outbox/sendSuccess(to:id:encodedResult:)``); the bytes are ``reply(_:encodedResult:)``'s.
    func reply(_ call: Call, constantResult text: StaticString) {
        guard let id = call.id else { return }
        if case .integer(let number) = id, case .direct = call.route {
            outbox.sendSuccess(to: call.session, id: number, encodedResult: text)
            return
        }
        reply(call, encodedResult: Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)))
    }

    /// Answers `call` with a `vm.create` result, written member by member.
    func reply(_ call: Call, created result: VMCreateMethod.Result) {
        guard let id = call.id else { return }
        // The common reply, written straight into the transport's buffer (the same bytes).
        if case .integer(let number) = id, case .direct = call.route, let count = result.plainTextByteCount {
            outbox.sendSuccess(to: call.session, id: number, resultByteCount: count) { result.writePlainText(to: $0) }
            return
        }
        deliverResponse(on: call.session, route: call.route) { buffer in
            JSONRPCEncoder.appendSuccess(id: id, to: &buffer) { writer in result.appendMembers(to: &writer) }
        }
    }

    func respond(on session: Session, route: ReplyRoute, id: RequestID, _ outcome: Result<JSONValue, WireError>) {
        deliverResponse(on: session, route: route) { buffer in
            switch outcome {
            case .success(let result): JSONRPCEncoder.appendSuccess(id: id, result: result, to: &buffer)
            case .failure(let error): JSONRPCEncoder.appendFailure(id: id, error: error.jsonRPCError, to: &buffer)
            }
        }
    }

    private func deliverResponse(on session: Session, route: ReplyRoute, _ build: (inout [UInt8]) -> Void) {
        switch route {
        case .none:
            return
        case .direct:
            outbox.send(to: session, build)
        case .batch(let batch, let slot):
            var response: [UInt8] = []
            build(&response)
            if let responses = batch.fill(slot, with: response) { writeBatch(responses, on: session) }
        }
    }

    private func writeBatch(_ responses: [[UInt8]], on session: Session) {
        outbox.send(to: session) { buffer in JSONRPCEncoder.appendBatch(encodedResponses: responses, to: &buffer) }
    }

    // MARK: Helpers

    /// Whether the frame holds only JSON whitespace (such lines are ignored).
    static func isBlank(_ frame: UnsafeRawBufferPointer) -> Bool {
        for byte in frame {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// The source text of a non-integer number id, so it is echoed byte for byte. Rare (ids are
    /// strings or integers in practice), so it re-reads the frame with JSONRPC's decoder.
    static func literalID(in frame: UnsafeRawBufferPointer, batchIndex: Int?) -> String? {
        let entry: JSONRPCEntry
        switch JSONRPCDecoder.decode(frame, options: JSONParseOptions(maxDepth: .max)) {
        case .single(let single) where batchIndex == nil:
            entry = single
        case .batch(let entries) where batchIndex.map(entries.indices.contains) == true:
            guard let batchIndex else { return nil }
            entry = entries[batchIndex]
        default:
            return nil
        }
        let id: RequestID
        switch entry {
        case .message(.request(let request)): id = request.id
        case .message(.response(let response)): id = response.id
        case .invalid(let invalidID, _): id = invalidID
        case .message(.notification): return nil
        }
        if case .numberLiteral(let text) = id { return text }
        return nil
    }
}
