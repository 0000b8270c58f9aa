import JSONCore

/// Everything that can go wrong when a client uses hosted view models. Each case is one wire
/// error: ``name`` is `error.data.name` (the server maps it to the code), ``message`` is
/// `error.message`, ``data`` is `error.data` — all as `Protocol/PROTOCOL.md` section 10 says.
public enum ViewModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an invalid value was for.
    public enum ValueTarget: Sendable, Equatable {
        /// The value of input `input` of `instance`.
        case input(String, instance: String)
        /// The value `vm.execute` gave action `action` of `instance`.
        case action(String, instance: String)
        /// `vm.create`'s `args` for a new instance of `type`.
        case args(type: String)
        /// The id a view model gave a child of type `type` it created.
        case childID(type: String)
    }

    /// No type of that name is registered; `known` lists the registered names.
    case unknownType(type: String, known: [String])
    /// No live instance has that id.
    case unknownInstance(instance: String)
    /// The type of `instance` has no such input; `known` lists its inputs.
    case unknownInput(type: String, instance: String, input: String, known: [String])
    /// The type of `instance` has no such output; `known` lists its outputs.
    case unknownOutput(type: String, instance: String, output: String, known: [String])
    /// The type of `instance` has no such action; `known` lists its actions.
    case unknownAction(type: String, instance: String, action: String, known: [String])
    /// A value does not match its schema: at `path` inside it, `expected` was wanted and
    /// `got` (a JSON type name, or "missing") was found.
    case invalidValue(ValueTarget, path: JSONPath, expected: String, got: String)
    /// The action is disabled now, or already running.
    case actionNotEnabled(instance: String, action: String)
    /// A newer execution of the same action (its strategy is `latest`) cancelled this one.
    case actionSuperseded(instance: String, action: String)
    /// The action ran and failed: `message` (and `data`, extra members of the wire's
    /// `data.error`) describe the underlying error.
    case actionFailed(instance: String, action: String, message: String, data: JSONObject?)
    /// `vm.create` with an id already in use.
    case instanceExists(instance: String)
    /// `vm.get` of an event output.
    case notStateOutput(instance: String, output: String)
    /// A limit (named as in `daemon.info`'s `limits`) would be exceeded; `value` is the
    /// limit in force.
    case limitReached(limit: String, value: Int)

    /// The wire's symbolic name (`error.data.name`).
    public var name: String {
        switch self {
        case .unknownType: "unknownType"
        case .unknownInstance: "unknownInstance"
        case .unknownInput: "unknownInput"
        case .unknownOutput: "unknownOutput"
        case .unknownAction: "unknownAction"
        case .invalidValue: "invalidValue"
        case .actionNotEnabled: "actionNotEnabled"
        case .actionSuperseded: "actionSuperseded"
        case .actionFailed: "actionFailed"
        case .instanceExists: "instanceExists"
        case .notStateOutput: "notStateOutput"
        case .limitReached: "limitReached"
        }
    }

    /// One sentence a person can act on (`error.message`).
    public var message: String {
        switch self {
        case .unknownType(let type, let known):
            let list = known.isEmpty ? "this daemon serves no types" : "the types are " + known.joined(separator: ", ")
            return "Unknown type \(quoted(type)); \(list) (vm.types describes them)."
        case .unknownInstance(let instance):
            return "No instance \(quoted(instance)); vm.list shows the live instances."
        case .unknownInput(let type, _, let input, let known):
            return "\(type) has no input \(quoted(input)); " + listing("inputs", known)
        case .unknownOutput(let type, _, let output, let known):
            return "\(type) has no output \(quoted(output)); " + listing("outputs", known)
        case .unknownAction(let type, _, let action, let known):
            return "\(type) has no action \(quoted(action)); " + listing("actions", known)
        case .invalidValue(let target, let path, let expected, let got):
            let subject = switch target {
            case .input(let input, let instance): "Invalid value for input \(quoted(input)) of \(instance)"
            case .action(let action, let instance): "Invalid value for action \(quoted(action)) of \(instance)"
            case .args(let type): "Invalid args for \(type)"
            case .childID(let type): "Invalid id for a child \(type)"
            }
            let location = path.components.isEmpty ? "" : " at \(path.jsonPointer)"
            return "\(subject)\(location): expected \(expected), got \(got)."
        case .actionNotEnabled(let instance, let action):
            return "Action \(quoted(action)) of \(instance) is not enabled now: it is running, or its input is not valid yet."
        case .actionSuperseded(let instance, let action):
            return "Action \(quoted(action)) of \(instance) was superseded by a newer execution of it; only the newest one answers with a result."
        case .actionFailed(let instance, let action, let message, _):
            return "Action \(quoted(action)) of \(instance) failed: \(sentence(message))"
        case .instanceExists(let instance):
            return "An instance \(quoted(instance)) already exists; choose another id or omit id."
        case .notStateOutput(let instance, let output):
            return "Output \(quoted(output)) of \(instance) is an event output and has no current value; watch it with vm.subscribe."
        case .limitReached(let limit, let value):
            return "Limit \(limit) (\(value)) reached; destroy instances or restart vmd with a larger \(flag(limit))."
        }
    }

    /// The wire's `error.data`: `name` first, then the members section 10 lists for it.
    public var data: JSONObject {
        var data: JSONObject = ["name": .string(name)]
        switch self {
        case .unknownType(let type, _):
            data["type"] = .string(type)
        case .unknownInstance(let instance), .instanceExists(let instance):
            data["instance"] = .string(instance)
        case .unknownInput(_, let instance, let input, _):
            data["instance"] = .string(instance)
            data["input"] = .string(input)
        case .unknownOutput(_, let instance, let output, _), .notStateOutput(let instance, let output):
            data["instance"] = .string(instance)
            data["output"] = .string(output)
        case .unknownAction(_, let instance, let action, _), .actionNotEnabled(let instance, let action),
             .actionSuperseded(let instance, let action):
            data["instance"] = .string(instance)
            data["action"] = .string(action)
        case .invalidValue(_, let path, let expected, let got):
            data["path"] = .string(path.jsonPointer)
            data["expected"] = .string(expected)
            data["got"] = .string(got)
        case .actionFailed(let instance, let action, let message, let extra):
            data["instance"] = .string(instance)
            data["action"] = .string(action)
            var error: JSONObject = ["message": .string(message)]
            for (key, value) in extra ?? [:] where key != "message" { error[key] = value }
            data["error"] = .object(error)
        case .limitReached(let limit, let value):
            data["limit"] = .string(limit)
            data["value"] = .integer(Int64(value))
        }
        return data
    }

    public var description: String { message }
}

private func quoted(_ text: String) -> String {
    JSONValue.string(text).encodedString()
}

private func listing(_ noun: String, _ names: [String]) -> String {
    names.isEmpty ? "it has no \(noun)." : "its \(noun) are \(names.joined(separator: ", "))."
}

/// Ends `text` with a period unless it already ends a sentence.
private func sentence(_ text: String) -> String {
    guard let last = text.last else { return "(no message)." }
    return ".!?".contains(last) ? text : text + "."
}

/// `maxInstances` → `--max-instances`.
private func flag(_ limit: String) -> String {
    var result = "--"
    for character in limit {
        if character.isUppercase {
            result += "-" + character.lowercased()
        } else {
            result.append(character)
        }
    }
    return result
}

extension JSONPath {
    /// The path as a JSON Pointer (RFC 6901): `""` for the root, `/items/2/name` below it.
    var jsonPointer: String {
        var pointer = ""
        for component in components {
            pointer += "/"
            switch component {
            case .index(let index):
                pointer += String(index)
            case .key(let key):
                for character in key {
                    switch character {
                    case "~": pointer += "~0"
                    case "/": pointer += "~1"
                    default: pointer.append(character)
                    }
                }
            }
        }
        return pointer
    }
}
