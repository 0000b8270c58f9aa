import JSONCore
import Posix

/// `call METHOD [JSON-PARAMS]`: any method, raw.
enum CallCommand {
    static func run(_ run: Invocation) throws(CommandFailure) {
        var params: JSONValue? = nil
        if let text = run.parsed.positional("JSON-PARAMS") {
            let bytes: [UInt8]
            if text == "-" {
                do {
                    bytes = try FileDescriptor(adopting: FileDescriptor.standardInput).readToEnd()
                } catch {
                    throw CommandFailure(status: .usage, message: "cannot read JSON-PARAMS from standard input: \(error)")
                }
            } else {
                bytes = Array(text.utf8)
            }
            do {
                params = try JSONValue(parsing: bytes)
            } catch {
                throw .usage("JSON-PARAMS is not valid JSON: \(error)", run.parsed)
            }
        }
        let result = try run.call(run.argument("METHOD"), params)
        run.print(result) { console in console.line(result.prettyPrinted()) }
    }
}
