import JSONCore
import ViewModelKit

/// Where ``SendList`` uploads what it sends.
///
/// Injected when the type is registered (``CatalogServices/sendStore``); the built-in one is
/// ``FileSendStore``. Called from `async` work off the daemon's loop.
public protocol SendStore: Sendable {
    /// Stores `message` for `recipients` and returns the stored upload with its new id.
    /// When this returns, the upload is durable; when it throws, nothing of it was stored.
    func upload(message: String, recipients: [String]) async throws -> Upload
    /// Stores `message` for `recipients` at most once per `key`: when an upload with `key` is
    /// already stored, returns it and stores nothing (see ``SendRequest``). `key == nil` is
    /// ``upload(message:recipients:)``.
    func upload(message: String, recipients: [String], key: String?) async throws -> Upload
    /// Every stored upload, each exactly once, in id order.
    func uploads() async throws -> [Upload]
}

extension SendStore {
    /// For stores that keep no keys: a send without a key is stored as before; one with a
    /// key is refused, because storing it could store it twice.
    public func upload(message: String, recipients: [String], key: String?) async throws -> Upload {
        guard key == nil else {
            throw SendStoreError(
                "This send store does not keep idempotency keys, so a send with a key is not stored; send without one.",
                reason: "keysUnsupported", path: "")
        }
        return try await upload(message: message, recipients: recipients)
    }
}

/// A store that could not do its work, told so a person understands it (the action's
/// error and the failure message say what happened and that nothing was kept).
public struct SendStoreError: PresentableError, Sendable, CustomStringConvertible {
    public let message: String
    public let data: JSONObject?

    public init(_ message: String, reason: String, path: String) {
        self.message = message
        self.data = ["reason": .string(reason), "path": .string(path)]
    }

    public var description: String { message }
}
