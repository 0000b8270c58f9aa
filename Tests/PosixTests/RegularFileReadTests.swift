import Posix
import Testing
import VMTestSupport

/// ``FileSystem/readRegularFile(_:maxBytes:)``: what config files and tapes are read with.
@Suite("Reading a regular file with a bound")
struct RegularFileReadTests {
    @Test("a regular file is read whole, with its owner and mode")
    func readsARegularFile() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["file"]) }
        let path = directory.file("file")
        let file = try FileDescriptor.open(path, [.writeOnly, .create], mode: 0o640)
        try file.writeAll(Array("hello\n".utf8))
        try file.close()
        let read = try FileSystem.readRegularFile(path, maxBytes: 6)
        #expect(read.bytes == Array("hello\n".utf8))
        #expect(read.info.permissions == 0o640 && read.info.owner == CurrentProcess.uid)
        #expect { try FileSystem.readRegularFile(path, maxBytes: 5) } throws: { error in
            (error as? RegularFileError)?.reason == .tooLarge(maxBytes: 5)
        }
    }

    @Test("/dev/zero and a directory are refused without reading")
    func specialFilesAreRefused() throws {
        #expect { try FileSystem.readRegularFile("/dev/zero", maxBytes: 10) } throws: { error in
            (error as? RegularFileError)?.reason == .notRegular(.other)
        }
        #expect { try FileSystem.readRegularFile("/", maxBytes: 10) } throws: { error in
            (error as? RegularFileError)?.reason == .notRegular(.directory)
        }
    }
}
