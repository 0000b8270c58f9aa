import CPosix

/// Flags for ``FileDescriptor/open(_:_:mode:)``; `O_CLOEXEC` is always added.
public struct OpenFlags: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let readOnly = OpenFlags(rawValue: CPOSIX_O_RDONLY)
    public static let writeOnly = OpenFlags(rawValue: CPOSIX_O_WRONLY)
    public static let readWrite = OpenFlags(rawValue: CPOSIX_O_RDWR)
    public static let create = OpenFlags(rawValue: CPOSIX_O_CREAT)
    public static let exclusive = OpenFlags(rawValue: CPOSIX_O_EXCL)
    public static let truncate = OpenFlags(rawValue: CPOSIX_O_TRUNC)
    public static let append = OpenFlags(rawValue: CPOSIX_O_APPEND)
    public static let directory = OpenFlags(rawValue: CPOSIX_O_DIRECTORY)
    public static let noFollow = OpenFlags(rawValue: CPOSIX_O_NOFOLLOW)
}
