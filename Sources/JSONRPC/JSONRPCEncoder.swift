import JSONCore

/// Writes JSON-RPC messages straight into a byte buffer, members in a fixed order
/// (`jsonrpc`, `id`, `method`, `params` / `result` / `error`), so output is deterministic.
///
/// Besides whole ``JSONValue``s, params and results can be written member by member with a
/// ``JSONObjectWriter``, which can splice a pre-encoded value: the server encodes each output
/// value once and copies its bytes into every notification that carries it.
package enum JSONRPCEncoder {
    static let header: StaticString = #"{"jsonrpc":"2.0""#

    @inline(__always)
    static func appendStatic(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// ``header`` and `,"id":` in one copy (every response starts with them).
    static let headerWithID: StaticString = #"{"jsonrpc":"2.0","id":"#

    static func appendHeader(id: RequestID?, to buffer: inout [UInt8]) {
        guard let id else {
            appendStatic(header, to: &buffer)
            return
        }
        appendStatic(headerWithID, to: &buffer)
        id.encode(into: &buffer)
    }

    // MARK: Requests and notifications

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` (params left out when `nil`).
    package static func appendRequest(id: RequestID, method: String, params: JSONValue?, to buffer: inout [UInt8]) {
        appendHeader(id: id, to: &buffer)
        appendMethod(method, params: params, to: &buffer)
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}` (params left out when `nil`).
    package static func appendNotification(method: String, params: JSONValue?, to buffer: inout [UInt8]) {
        appendHeader(id: nil, to: &buffer)
        appendMethod(method, params: params, to: &buffer)
    }

    /// A notification whose params object is written member by member by `params`.
    package static func appendNotification<E: Error>(
        method: String, to buffer: inout [UInt8], params: (inout JSONObjectWriter) throws(E) -> Void
    ) throws(E) {
        appendHeader(id: nil, to: &buffer)
        appendStatic(#","method":"#, to: &buffer)
        JSONSerializer.appendString(method, to: &buffer)
        appendStatic(#","params":"#, to: &buffer)
        try JSONObjectWriter.append(to: &buffer, params)
        buffer.append(UInt8(ascii: "}"))
    }

    static func appendMethod(_ method: String, params: JSONValue?, to buffer: inout [UInt8]) {
        appendStatic(#","method":"#, to: &buffer)
        JSONSerializer.appendString(method, to: &buffer)
        if let params {
            appendStatic(#","params":"#, to: &buffer)
            JSONSerializer.append(params, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    // MARK: Responses

    /// `{"jsonrpc":"2.0","id":…,"result":…}`.
    package static func appendSuccess(id: RequestID, result: JSONValue, to buffer: inout [UInt8]) {
        appendHeader(id: id, to: &buffer)
        appendStatic(#","result":"#, to: &buffer)
        JSONSerializer.append(result, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// A success whose result is JSON text that is already encoded (copied verbatim; it must
    /// be one complete, valid JSON value). An array, not any collection of bytes: the generic
    /// form ran unspecialized from other modules, and copying a 19-byte `vm.destroy` result
    /// cost more than serializing it (`.ci/instructions`, `destroy`).
    package static func appendSuccess(id: RequestID, encodedResult: [UInt8], to buffer: inout [UInt8]) {
        appendHeader(id: id, to: &buffer)
        appendStatic(#","result":"#, to: &buffer)
        buffer.append(contentsOf: encodedResult)
        buffer.append(UInt8(ascii: "}"))
    }

    /// The most bytes ``writeSuccess(id:encodedResult:into:)`` writes for `encodedResult`.
    @inlinable
    package static func maximumSuccessByteCount(encodedResult: StaticString) -> Int {
        successHead.utf8CodeUnitCount + JSONByteWriter.maximumDigitsByteCount + successResultKey.utf8CodeUnitCount + encodedResult.utf8CodeUnitCount + 1
    }

    /// Writes the bytes of ``appendSuccess(id:encodedResult:to:)`` for an integer id straight
    /// into `buffer` (at least ``maximumSuccessByteCount(encodedResult:)`` bytes long), for a
    /// transport's own buffer: no intermediate array. Returns the number of bytes written.
    @inlinable
    package static func writeSuccess(id: Int64, encodedResult: StaticString, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        precondition(buffer.count >= maximumSuccessByteCount(encodedResult: encodedResult))
        var cursor = JSONByteWriter.copy(successHead, to: base)
        cursor = JSONByteWriter.writeDigits(id, to: cursor)
        cursor = JSONByteWriter.copy(successResultKey, to: cursor)
        cursor = JSONByteWriter.copy(encodedResult, to: cursor)
        cursor.storeBytes(of: UInt8(ascii: "}"), as: UInt8.self)
        return cursor + 1 - base
    }

    /// The most bytes ``writeSuccess(id:resultByteCount:into:_:)`` writes for a result of
    /// `resultByteCount` bytes.
    @inlinable
    package static func maximumSuccessByteCount(resultByteCount: Int) -> Int {
        successHead.utf8CodeUnitCount + JSONByteWriter.maximumDigitsByteCount + successResultKey.utf8CodeUnitCount + resultByteCount + 1
    }

    /// ``writeSuccess(id:encodedResult:into:)`` for a result that `writeResult` writes at the
    /// cursor it is given (exactly `resultByteCount` bytes, one complete JSON value), returning
    /// the position after it; `buffer` is at least ``maximumSuccessByteCount(resultByteCount:)``
    /// bytes long. Returns the number of bytes written.
    @inlinable
    package static func writeSuccess(
        id: Int64, resultByteCount: Int, into buffer: UnsafeMutableRawBufferPointer,
        _ writeResult: (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    ) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        precondition(buffer.count >= maximumSuccessByteCount(resultByteCount: resultByteCount))
        var cursor = JSONByteWriter.copy(successHead, to: base)
        cursor = JSONByteWriter.writeDigits(id, to: cursor)
        cursor = JSONByteWriter.copy(successResultKey, to: cursor)
        let resultStart = cursor
        cursor = writeResult(cursor)
        precondition(cursor - resultStart == resultByteCount)
        cursor.storeBytes(of: UInt8(ascii: "}"), as: UInt8.self)
        return cursor + 1 - base
    }

    @usableFromInline static let successHead: StaticString = #"{"jsonrpc":"2.0","id":"#
    @usableFromInline static let successResultKey: StaticString = #","result":"#

    /// A success whose result object is written member by member by `result`.
    package static func appendSuccess<E: Error>(
        id: RequestID, to buffer: inout [UInt8], result: (inout JSONObjectWriter) throws(E) -> Void
    ) throws(E) {
        appendHeader(id: id, to: &buffer)
        appendStatic(#","result":"#, to: &buffer)
        try JSONObjectWriter.append(to: &buffer, result)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}`.
    package static func appendFailure(id: RequestID, error: JSONRPCError, to buffer: inout [UInt8]) {
        appendHeader(id: id, to: &buffer)
        appendStatic(#","error":{"code":"#, to: &buffer)
        JSONSerializer.appendInteger(Int64(error.code.rawValue), to: &buffer)
        appendStatic(#","message":"#, to: &buffer)
        JSONSerializer.appendString(error.message, to: &buffer)
        if let data = error.data {
            appendStatic(#","data":"#, to: &buffer)
            JSONSerializer.append(data, to: &buffer)
        }
        appendStatic("}}", to: &buffer)
    }

    /// Appends a response (success or failure).
    package static func appendResponse(_ response: JSONRPCResponse, to buffer: inout [UInt8]) {
        switch response.outcome {
        case .success(let result): appendSuccess(id: response.id, result: result, to: &buffer)
        case .failure(let error): appendFailure(id: response.id, error: error, to: &buffer)
        }
    }

    /// Appends any message.
    package static func append(_ message: JSONRPCMessage, to buffer: inout [UInt8]) {
        switch message {
        case .request(let request):
            appendRequest(id: request.id, method: request.method, params: request.params, to: &buffer)
        case .notification(let notification):
            appendNotification(method: notification.method, params: notification.params, to: &buffer)
        case .response(let response):
            appendResponse(response, to: &buffer)
        }
    }

    /// A batch reply: `[` the already-encoded responses, comma-separated `]`. (A batch whose
    /// entries were all notifications gets no reply at all: do not call this with none.)
    package static func appendBatch(encodedResponses: [[UInt8]], to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        for (index, response) in encodedResponses.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: response)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// The encoded bytes of one message (convenience for tests and clients).
    package static func encode(_ message: JSONRPCMessage) -> [UInt8] {
        var buffer: [UInt8] = []
        append(message, to: &buffer)
        return buffer
    }
}
