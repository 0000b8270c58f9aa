import CPosix

/// Flags for ``FileDescriptor/open(_:_:mode:)``; `O_CLOEXEC` is always added.
package struct OpenFlags: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let readOnly = OpenFlags(rawValue: CPOSIX_O_RDONLY)
    package static let writeOnly = OpenFlags(rawValue: CPOSIX_O_WRONLY)
    package static let readWrite = OpenFlags(rawValue: CPOSIX_O_RDWR)
    package static let create = OpenFlags(rawValue: CPOSIX_O_CREAT)
    package static let exclusive = OpenFlags(rawValue: CPOSIX_O_EXCL)
    package static let truncate = OpenFlags(rawValue: CPOSIX_O_TRUNC)
    package static let append = OpenFlags(rawValue: CPOSIX_O_APPEND)
    package static let directory = OpenFlags(rawValue: CPOSIX_O_DIRECTORY)
    package static let noFollow = OpenFlags(rawValue: CPOSIX_O_NOFOLLOW)
}
