import CommandLineKit
import JSONCore
import VMProtocol
import VMClient

/// `vmctl __complete WORD...`: what the completion scripts offer that only the running
/// daemon knows: types after `create` and `gen LANGUAGE`, instances after
/// send/get/watch/exec/destroy, then that instance's inputs, outputs or actions, creation
/// arguments for `--arg`, and the protocol's methods after `call` (those vmctl knows without
/// asking). Quiet and quick:
/// no daemon, a slow one, or an error means no candidates, never a message.
enum DynamicCompletion {
    /// The hidden command's name, which the completion scripts call.
    static let command = "__complete"

    /// How long one question to the daemon may take before completion gives up.
    static let patience: Duration = .milliseconds(500)

    static func run(_ words: [String], environment: [String: String], console: Console) -> Int32 {
        let context = CompletionContext(words: words, root: VMCtlSpec.root)
        let location = VMSocketLocation.resolve(explicitPath: context.optionValues["socket"], environment: environment)
        let daemon = Daemon(location: location)
        for candidate in candidates(context, daemon) { console.line(candidate) }
        console.flush()
        return ExitStatus.success.rawValue
    }

    /// The candidates for `context`, or `[":files"]` where a file name is expected.
    static func candidates(_ context: CompletionContext, _ daemon: Daemon) -> [String] {
        if let option = context.optionAwaitingValue {
            switch (context.path, option.long) {
            case (_, "socket"), (["daemon", "start"], "vmd"), (["gen"], "output"), (["gen"], "types"):
                return [":files"]
            case (["create"], "arg"):
                guard let type = context.positionals.first else { return [] }
                let properties = daemon.describe(type)?["args"]?["properties"]?.objectValue
                return (properties?.keys.map { $0 + "=" } ?? []).sorted()
            default:
                return []  // an id, a count, a number of seconds: nothing to offer
            }
        }
        let index = context.positionals.count
        switch (context.path, index) {
        case (["create"], 0), (["types"], 0):
            return daemon.typeNames()
        case (["send"], 0), (["get"], 0), (["watch"], 0), (["exec"], 0), (["destroy"], 0), (["tape"], 0), (["record"], 0):
            return daemon.instanceNames()
        case (["send"], 1):
            return daemon.members(of: context.positionals[0], "inputs")
        case (["get"], 1):
            return daemon.members(of: context.positionals[0], "outputs") { $0["kind"]?.stringValue == "state" }
        case (["watch"], _) where index >= 1:
            return daemon.members(of: context.positionals[0], "outputs").filter { !context.positionals.contains($0) }
        case (["exec"], 1):
            return daemon.members(of: context.positionals[0], "actions")
        case (["call"], 0):
            return MethodCommands.names
        case (["gen"], _) where index >= 1:
            return daemon.typeNames().filter { !context.positionals.dropFirst().contains($0) }
        default:
            return []
        }
    }

    /// The daemon, asked lazily over one connection with short timeouts; every failure is `nil`.
    final class Daemon {
        private let location: VMSocketLocation
        private var connection: VMBlockingConnection?
        private var unreachable = false

        init(location: VMSocketLocation) { self.location = location }

        deinit { connection?.close() }

        func call(_ method: String, _ params: JSONValue? = nil) -> JSONValue? {
            if unreachable { return nil }
            if connection == nil {
                connection = try? VMBlockingConnection.connect(to: location, timeout: DynamicCompletion.patience)
                if connection == nil { unreachable = true; return nil }
            }
            return try? connection?.call(method, params, timeout: DynamicCompletion.patience)
        }

        func call(_ method: any VMMethod.Type, _ params: JSONValue? = nil) -> JSONValue? {
            call(method.name, params)
        }

        func typeNames() -> [String] {
            (call(VMTypesMethod.self)?["types"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        }

        func instanceNames() -> [String] {
            (call(VMListMethod.self)?["instances"]?.arrayValue ?? []).compactMap { $0["instance"]?.stringValue }
        }

        func describe(_ type: String) -> JSONValue? {
            call(VMTypesMethod.self, VMTypesMethod.Params(type: type).jsonValue)?["types"]?.arrayValue?.first { $0["name"]?.stringValue == type }
        }

        /// The names in `list` ("inputs", "outputs", "actions") of `instance`'s type.
        func members(of instance: String, _ list: String, where keep: (JSONValue) -> Bool = { _ in true }) -> [String] {
            let listed = call(VMListMethod.self)?["instances"]?.arrayValue ?? []
            guard let type = listed.first(where: { $0["instance"]?.stringValue == instance })?["type"]?.stringValue else { return [] }
            return (describe(type)?[list]?.arrayValue ?? []).filter(keep).compactMap { $0["name"]?.stringValue }
        }
    }
}
