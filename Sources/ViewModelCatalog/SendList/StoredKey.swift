/// What ``FileSendStore`` remembers of an upload stored with a key.
struct StoredKey: Sendable {
    let id: Int
    let digest: Int

    init(_ upload: Upload) {
        id = upload.id
        digest = Self.digest(message: upload.message, recipients: upload.recipients)
    }

    /// A digest of an upload's content (the process's seeded `Hasher`: the index is rebuilt
    /// from the file by each process, so it never needs to be stable across runs).
    static func digest(message: String, recipients: [String]) -> Int {
        var hasher = Hasher()
        hasher.combine(message)
        hasher.combine(recipients)
        return hasher.finalize()
    }
}
