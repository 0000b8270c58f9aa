import JSONCore

/// The store file's format, apart from any I/O: newline-delimited JSON, one ``Upload`` per
/// line, appended in id order.
///
/// Reading is forgiving, so one bad line never hides the good ones: a line that is not an
/// upload is skipped, an id seen before is skipped (each upload is read back exactly once),
/// and bytes after the last newline are a torn record (a crash in the middle of a write)
/// that the store cuts off before appending again.
enum UploadLog {
    /// What a file's bytes hold.
    struct Contents: Equatable {
        /// Each distinct upload once, in file order.
        var uploads: [Upload] = []
        /// The length of the file up to and including its last newline: everything after it
        /// is a torn record.
        var intactLength = 0
        /// Complete lines that were not uploads, or repeated an id.
        var skippedLines = 0

        /// The id the next upload gets.
        var nextID: Int { (uploads.map(\.id).max() ?? 0) + 1 }
    }

    static let newline = UInt8(ascii: "\n")

    /// One upload as a record: its JSON and a newline.
    static func record(_ upload: Upload) -> [UInt8] {
        var bytes = upload.jsonValue.encodedBytes()
        bytes.append(newline)
        return bytes
    }

    /// Reads `bytes` as a store file.
    static func read(_ bytes: [UInt8]) -> Contents {
        var contents = Contents()
        var seen = Set<Int>()
        var lineStart = 0
        for index in bytes.indices where bytes[index] == newline {
            defer { lineStart = index + 1 }
            contents.intactLength = index + 1
            let line = bytes[lineStart..<index]
            if line.isEmpty { continue }
            guard let json = try? JSONValue(parsing: line), let upload = try? Upload(json: json), upload.id > 0,
                  seen.insert(upload.id).inserted
            else {
                contents.skippedLines += 1
                continue
            }
            contents.uploads.append(upload)
        }
        return contents
    }
}
