import Posix

/// The file operations ``FileSendStore`` needs; Posix's `DurableFile` provides them for
/// real, and tests wrap it to make a write fail on purpose.
protocol AppendOnlyFile: Sendable {
    /// Appends `record` durably (written and synced) or throws having left the file as it was.
    func append(_ record: [UInt8]) throws
    /// The whole file.
    func readAll() throws -> [UInt8]
    /// Atomically replaces the whole file (used once, to cut off a torn record).
    func replace(with contents: [UInt8]) throws
}

extension DurableFile: AppendOnlyFile {}
