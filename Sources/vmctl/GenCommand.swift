import JSONCore
import Posix
import VMProtocol

/// `vmctl gen LANGUAGE [TYPE…]`: typed client code from `vm.types`, the running daemon's or a
/// saved one (`--types FILE`, so a build needs no daemon). The model is ClientGen/GenModel.swift;
/// one emitter per language spells it. Same input, same bytes.
enum GenCommand {
    static let languages = ["python", "typescript", "swift"]

    static func run(_ run: Invocation) throws(CommandFailure) {
        let language = run.argument("LANGUAGE")
        let types = try selected(run.parsed.positionals("TYPE"), from: try described(run), run: run)
        let model = GenModel(types: types)
        let module = run.parsed.value("module")
        let files: [(path: String, text: String)]
        switch language {
        case "python":
            files = PythonEmitter(model: model).files(module: module ?? "vmd_types")
        case "typescript":
            files = TypeScriptEmitter(model: model).files(module: module ?? "vmd-types")
        default:
            files = SwiftEmitter(model: model).files(module: module ?? "VMDTypes")
        }
        guard let directory = run.parsed.value("output") else {
            // Standard output: the main file alone (py.typed is empty).
            if let main = files.first { run.console.line(String(main.text.dropLast())) }
            return
        }
        do {
            try FileSystem.makeDirectories(directory, permissions: 0o755)
        } catch {
            throw CommandFailure(status: .usage, message: "cannot make the directory \(directory): \(error)")
        }
        for file in files {
            let path = directory + "/" + file.path
            do {
                let descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o644)
                defer { try? descriptor.close() }
                try descriptor.writeAll(Array(file.text.utf8))
            } catch {
                throw CommandFailure(status: .usage, message: "cannot write \(path): \(error)")
            }
            if !run.json { run.console.note("wrote \(path)") }
        }
    }

    /// Every type description: from `--types FILE` (a `vm.types` result, the whole JSON-RPC
    /// reply holding one, or the bare array), else from the daemon.
    private static func described(_ run: Invocation) throws(CommandFailure) -> [VMTypesMethod.TypeDescription] {
        let result: JSONValue
        let source: String
        if let path = run.parsed.value("types") {
            source = path
            do {
                let bytes = try FileSystem.readFile(path)
                let document = try JSONValue(parsing: bytes)
                switch document {
                case .array: result = ["types": document]
                default: result = document["result"] ?? document
                }
            } catch {
                throw CommandFailure(status: .usage, message: "cannot read vm.types from \(path): \(error)")
            }
        } else {
            source = VMTypesMethod.name
            result = try run.call(VMTypesMethod.self, VMTypesMethod.Params(type: nil).jsonValue)
        }
        do {
            return try VMTypesMethod.decodeResult(result)
        } catch {
            throw CommandFailure(status: run.parsed.value("types") == nil ? .daemonError : .usage,
                                 message: "\(source) is not a vm.types result: \(error)")
        }
    }

    /// The types named (all when none), in the order described; an unknown name is a usage error.
    private static func selected(
        _ names: [String], from types: [VMTypesMethod.TypeDescription], run: Invocation
    ) throws(CommandFailure) -> [VMTypesMethod.TypeDescription] {
        if names.isEmpty { return types }
        let known = Set(types.map(\.name))
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw CommandFailure(status: .usage, message: "no type '\(unknown)'; known: \(types.map(\.name).joined(separator: ", "))")
        }
        return types.filter { names.contains($0.name) }
    }
}
