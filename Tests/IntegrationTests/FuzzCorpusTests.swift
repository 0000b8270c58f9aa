import Posix
import Testing
import VMTestSupport

/// The committed fuzz corpus (Tests/FuzzCorpus) replayed through the fuzz targets of
/// `vmd-fuzz` (frames, json, requests, diff): every finding added there stays a test. A target
/// traps on a defect, which shows here as a signal instead of exit status 0.
@Suite struct FuzzCorpusTests {
    /// Tests/FuzzCorpus, found from this file's own path.
    static let corpus: String = {
        let file = #filePath
        let testsDirectory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return testsDirectory + "/FuzzCorpus"
    }()

    @Test func everyCorpusFileGoesThroughAllThreeTargetsWithoutATrap() throws {
        let directory = try TemporarySocketDirectory()
        let output = directory.file("replay.log")
        let child = try ChildProcess.spawn(
            try BuiltProducts.executable("vmd-fuzz"), arguments: [Self.corpus],
            standardInput: "/dev/null", outputPath: output)
        let termination = try child.wait()
        let log = String(decoding: (try? FileSystem.readFile(output)) ?? [], as: UTF8.self)
        #expect(termination == .exited(0), "vmd-fuzz: \(termination)\n\(log)")
        // The corpus holds files for each target; an empty or missing corpus must not pass.
        let count = log.split(separator: " ").dropFirst(2).first.flatMap { Int($0) } ?? 0
        #expect(count >= 30, "replayed too few corpus files: \(log)")
    }

    @Test func aMissingCorpusDirectoryIsAnErrorNotAnEmptyPass() throws {
        let directory = try TemporarySocketDirectory()
        let child = try ChildProcess.spawn(
            try BuiltProducts.executable("vmd-fuzz"), arguments: [directory.file("no-such-corpus")],
            standardInput: "/dev/null", outputPath: directory.file("replay.log"))
        #expect(try child.wait() == .exited(2))
    }
}
