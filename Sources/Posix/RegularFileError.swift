/// ``FileSystem/readRegularFile(_:maxBytes:)`` refused a file.
public struct RegularFileError: Error, Equatable, CustomStringConvertible {
    /// Why.
    public enum Reason: Equatable, Sendable {
        /// A directory, FIFO, device or socket.
        case notRegular(FileInfo.Kind)
        /// It holds more than `maxBytes` bytes.
        case tooLarge(maxBytes: Int)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
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
