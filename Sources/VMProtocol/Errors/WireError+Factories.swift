import JSONCore
import JSONRPC

/// The errors the protocol layer and the server raise themselves; the view-model kit's
/// errors carry their own message and data.
extension WireError {
    /// ``VMErrorCode/parseError`` for a frame that is not JSON (or not UTF-8).
    package static func parseError(_ error: JSONParseError) -> WireError {
        WireError(
            code: .parseError,
            message: "Parse error at byte \(error.offset): \(error.message). Send one complete JSON value per frame.")
    }

    /// ``VMErrorCode/invalidRequest``; `problem` says what is wrong ("\"jsonrpc\" must be \"2.0\"").
    package static func invalidRequest(_ problem: String) -> WireError {
        WireError(code: .invalidRequest, message: "Invalid request: \(sentenceBody(problem)).")
    }

    /// ``VMErrorCode/invalidRequest`` for `[]`.
    package static let emptyBatch = WireError(
        code: .invalidRequest, message: "Invalid request: an empty batch; send at least one request in it.")

    /// ``VMErrorCode/methodNotFound`` naming the method.
    package static func methodNotFound(_ method: String) -> WireError {
        WireError(
            code: .methodNotFound,
            message: "Unknown method \(quoted(method)); rpc.discover lists every method.",
            extra: ["method": .string(method)])
    }

    /// ``VMErrorCode/invalidParams`` at `path` (a JSON Pointer into params: `""` for params itself, `"/instance"`).
    /// `got` is the JSON type found, or `"missing"`; `nil` members are left out.
    package static func invalidParams(path: String, expected: String?, got: String?, detail: String? = nil) -> WireError {
        var extra: JSONObject = ["path": .string(path)]
        if let expected { extra["expected"] = .string(expected) }
        if let got { extra["got"] = .string(got) }
        let location = path.isEmpty ? "Invalid params" : "Invalid params at \(quoted(path))"
        let message: String
        if let detail {
            message = "\(location): \(sentenceBody(detail))."
        } else if let expected, let got {
            message = "\(location): expected \(article(expected)), got \(got)."
        } else {
            message = "\(location)."
        }
        return WireError(code: .invalidParams, message: message, extra: extra)
    }

    /// ``VMErrorCode/invalidParams`` for a member of params the method does not define.
    package static func unknownParam(_ name: String, method: String) -> WireError {
        invalidParams(
            path: "/" + jsonPointerEscaped(name), expected: nil, got: nil,
            detail: "\(method) has no parameter \(quoted(name)); rpc.discover lists its parameters")
    }

    /// ``VMErrorCode/internalError``; the details belong in the daemon's log, not on the wire.
    package static func internalError() -> WireError {
        WireError(code: .internalError, message: "Internal error; the daemon log has the details.")
    }

    /// ``VMErrorCode/requestCancelled`` for a `vm.execute` cancelled by `$/cancelRequest`.
    package static let requestCancelled = WireError(
        code: .requestCancelled, message: "Request cancelled by $/cancelRequest.")

    /// ``VMErrorCode/actionTimedOut``: `timeoutMs` expired and the execution was cancelled.
    package static func actionTimedOut(instance: String, action: String, timeoutMs: Int64) -> WireError {
        WireError(
            code: .actionTimedOut,
            message: "Action \(quoted(action)) of \(instance) did not finish within \(timeoutMs) ms and was cancelled.",
            extra: ["instance": .string(instance), "action": .string(action), "timeoutMs": .integer(timeoutMs)])
    }

    /// ``VMErrorCode/limitReached``: limit `limit` (its name in `daemon.info`'s `limits`) of `value` would be exceeded.
    package static func limitReached(_ limit: String, value: Int) -> WireError {
        let advice = switch limit {
        case "maxBatchItems": "send at most \(value) items per batch, or restart vmd with a larger --max-batch-items."
        case "maxDepth": "nest arrays and objects at most \(value) deep, or restart vmd with a larger --max-depth."
        case "maxFrameBytes": "send smaller frames, or restart vmd with a larger --max-frame-bytes."
        case "maxSubscriptionsPerConnection":
            "unsubscribe first, open another connection, or restart vmd with a larger --max-subscriptions-per-connection."
        case "maxInstances": "destroy instances or restart vmd with a larger --max-instances."
        case "maxConnections": "close connections or restart vmd with a larger --max-connections."
        case "maxOutboundBytes":
            "this request did not run: read the replies already queued, send smaller batches, or restart vmd with a larger --max-outbound-bytes."
        default: "restart vmd with a larger limit."
        }
        return WireError(
            code: .limitReached, message: "Limit \(limit) (\(value)) reached; \(advice)",
            extra: ["limit": .string(limit), "value": .integer(Int64(value))])
    }

    /// ``VMErrorCode/unknownSubscription``: no subscription (or monitor) `id` on this connection.
    package static func unknownSubscription(_ id: String, monitor: Bool = false) -> WireError {
        WireError(
            code: .unknownSubscription,
            message: monitor ? "No monitor \(quoted(id)) on this connection." : "No subscription \(quoted(id)) on this connection.",
            extra: ["subscription": .string(id)])
    }

    /// ``VMErrorCode/shuttingDown``: the daemon is stopping.
    package static let shuttingDown = WireError(
        code: .shuttingDown, message: "The daemon is shutting down; retry once it has restarted.")

    /// ``VMErrorCode/permissionDenied``: `method` is allowed only to the daemon's own uid.
    package static func permissionDenied(method: String, daemonUID: UInt32, peerUID: UInt32) -> WireError {
        WireError(
            code: .permissionDenied,
            message: "\(method) is allowed only to the daemon's own user (uid \(daemonUID)); this peer is uid \(peerUID).",
            extra: ["method": .string(method)])
    }
}

/// `text` as a JSON string literal, quotes included: `"vm.sned"`.
func quoted(_ text: String) -> String {
    JSONValue.string(text).encodedString()
}

/// `expected` with its indefinite article: "a string", "an integer", "an array of strings".
func article(_ expected: String) -> String {
    guard let first = expected.first else { return expected }
    return ("aeiou".contains(first) ? "an " : "a ") + expected
}

/// `problem` without a final period (the caller adds one).
func sentenceBody(_ problem: String) -> String {
    problem.hasSuffix(".") ? String(problem.dropLast()) : problem
}

/// `name` escaped for use as one JSON Pointer token (RFC 6901: `~` → `~0`, `/` → `~1`).
func jsonPointerEscaped(_ name: String) -> String {
    var token = ""
    for character in name {
        switch character {
        case "~": token += "~0"
        case "/": token += "~1"
        default: token.append(character)
        }
    }
    return token
}
