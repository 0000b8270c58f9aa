/// ``FileSystem/readRegularFile(_:maxBytes:)`` refused a file.
package struct RegularFileError: Error, Equatable, CustomStringConvertible {
    /// Why.
    package enum Reason: Equatable, Sendable {
        /// A directory, FIFO, device or socket.
        case notRegular(FileInfo.Kind)
        /// It holds more than `maxBytes` bytes.
        case tooLarge(maxBytes: Int)
    }

    package let path: String
    package let reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package var description: String {
        switch reason {
        case .notRegular(let kind):
            let what = switch kind {
            case .directory: "a directory"
            case .socket: "a socket"
            case .symbolicLink: "a symbolic link"
            case .regular, .other: "a FIFO, a device or another special file"
            }
            return "\(path) is not a regular file (it is \(what))"
        case .tooLarge(let maxBytes):
            return "\(path) is larger than \(maxBytes) bytes"
        }
    }
}
