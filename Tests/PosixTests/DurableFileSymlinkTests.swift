@testable import Posix
import VMTestSupport
import Testing

/// A store file is opened with `O_NOFOLLOW` (issue 31): a symbolic link planted at its path is
/// refused, and the file it points at is left alone.
@Suite("Durable file refuses a symbolic link at its path")
struct DurableFileSymlinkTests {
    @Test("opening a store path that is a symbolic link fails (ELOOP) and writes nothing through it")
    func symlinkIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["store", "elsewhere"]) }
        let target = directory.file("elsewhere")
        try FileDescriptor.open(target, [.writeOnly, .create]).close()
        try FileSystem.makeSymbolicLink(at: directory.file("store"), pointingTo: target)
        #expect { try DurableFile(path: directory.file("store")) } throws: { error in
            // ELOOP, as strerror words it.
            error is SystemError && String(describing: error).contains("symbolic links")
        }
        #expect(try FileSystem.info(target)?.size == 0)
    }
}
