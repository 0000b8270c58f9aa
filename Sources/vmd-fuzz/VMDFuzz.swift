// vmd-fuzz: four fuzz targets over what a hostile peer controls (run by .ci/fuzz;
// Sources/ViewModelDaemon/ViewModelDaemon.docc/Performance.md, "Reliability checks", lists it
// with the others).
//
//   frames    FramingDetector / LineFramer / ContentLengthFramer, then JSONRPCDecoder per frame
//   json      JSONParser, with a serialize → re-parse round trip on every accepted document
//   requests  NDJSON lines dispatched through an in-process Server on the catalog
//   diff      the same lines served twice, by the one-pass readers and by the general path:
//             any byte of difference in what a connection receives is a defect
//
// In a plain `swift build` this is a corpus replayer: `vmd-fuzz DIR...` runs every file under
// each DIR through all four targets and exits 0 (Tests/IntegrationTests/FuzzCorpusTests.swift
// runs it over Tests/FuzzCorpus). Built by `.ci/fuzz` with `-sanitize=fuzzer,address -D FUZZING`
// it hands control to libFuzzer, fuzzing the target named by VMD_FUZZ_TARGET.
//
// A target reports a defect by trapping (`precondition`), which libFuzzer records as a crash.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum VMDFuzz {
    static func main() {
        #if FUZZING
        runLibFuzzer()
        #else
        exit(CorpusReplay.run(directories: Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// Runs one input through the target called `name`; `false` for an unknown name.
    static func run(target name: String, _ input: UnsafeRawBufferPointer) -> Bool {
        switch name {
        case "frames": FrameTarget.run(input)
        case "json": JSONTarget.run(input)
        case "requests": RequestTarget.run(input)
        case "diff": DifferentialTarget.run(input)
        default: return false
        }
        return true
    }

    static let targetNames = ["frames", "json", "requests", "diff"]
}

#if FUZZING
/// libFuzzer's `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t))`.
private typealias FuzzerDriver = @convention(c) (
    UnsafeMutablePointer<Int32>,
    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's `main` to this module's `@main`, so libFuzzer's own `main` is
/// never linked in; instead `.ci/fuzz` keeps `LLVMFuzzerRunDriver` (`-Xlinker -u`) and exports
/// it (`--export-dynamic-symbol`), and it is looked up here and given argc/argv.
private func runLibFuzzer() -> Never {
    let name = getenv("VMD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard VMDFuzz.targetNames.contains(name) else {
        printError("vmd-fuzz: set VMD_FUZZ_TARGET to one of \(VMDFuzz.targetNames.joined(separator: ", "))\n")
        exit(2)
    }
    selectedTarget = name
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
        printError("vmd-fuzz: LLVMFuzzerRunDriver is not linked (build with .ci/fuzz)\n")
        exit(2)
    }
    let driver = unsafeBitCast(symbol, to: FuzzerDriver.self)
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(driver(&argc, &argv, { data, size in fuzzOneInput(data, size) }))
}

/// Written once before the driver starts, read by every input on libFuzzer's single thread.
nonisolated(unsafe) private var selectedTarget = ""

private func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    _ = VMDFuzz.run(target: selectedTarget, input)
    return 0
}

/// libFuzzer's driver object refers to this symbol; the driver above passes its own callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzOneInput(data, size)
}
#endif
