import JSONCore
import VMProtocol

/// `tape INSTANCE [-o FILE]`: writes the tape the daemon kept of an instance recorded from its
/// creation (`vm.tape`), one JSON line each, to standard output or FILE.
enum TapeCommand {
    static func run(_ run: Invocation) throws(CommandFailure) {
        let params = VMTapeMethod.Params(instance: run.argument("INSTANCE"))
        let answer = try run.call(VMTapeMethod.self, params.jsonValue)
        let result: VMTapeMethod.Result
        do {
            result = try VMTapeMethod.Result(json: answer)
        } catch {
            throw CommandFailure(status: .daemonError, message: "\(VMTapeMethod.name) answered an unexpected shape: \(error)")
        }
        let sink = try RecordCommand.Sink(path: run.parsed.value("output"), run: run)
        for line in result.lines { try sink.write(.object(line)) }
        if let dropped = result.lines.first?["dropped"]?.intValue, dropped > 0 {
            run.console.note("vmctl tape: the daemon dropped the first \(dropped) events of \(params.instance)'s tape (past its bound of \(Tape.maxRecordedBytes) bytes): it no longer starts at the creation and will not replay")
        }
    }
}
