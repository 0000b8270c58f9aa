import JSONCore
import VMProtocol

/// What a generated client declares, whatever its language: one ``ViewModel`` per type of
/// `vm.types` (in the order given) and the records and aliases their values use. Emitters only
/// spell it; the names in it are already unique (``GenNames``).
struct GenModel {
    struct Input {
        var name: String
        var summary: String
        var type: GenType
        /// The schema has a `default`, so `vm.send` may leave the value out.
        var hasDefault: Bool
    }

    struct Output {
        var name: String
        var summary: String
        var type: GenType
        /// Readable with `vm.get`.
        var isState: Bool
    }

    struct Action {
        var name: String
        var summary: String
        var input: GenType
        var output: GenType
        /// The input has a `default` or takes no value (`null`), so `vm.execute` may leave it out.
        var inputOptional: Bool
    }

    struct ViewModel {
        /// The type's name on the wire (`vm.create`'s `type`), kept exactly.
        var name: String
        var summary: String
        /// The class (or interface) the emitters declare for it.
        var className: String
        /// The record of its creation arguments, or `nil` when it takes none.
        var args: GenType?
        /// Whether some argument is required (`vm.create` needs `args`).
        var argsRequired: Bool
        var inputs: [Input]
        var outputs: [Output]
        var actions: [Action]
    }

    /// Suffixes of the names an emitter derives from a view model's class name; claimed with
    /// it so no record takes them.
    static let derivedSuffixes = ["Subscription", "Output", "OutputName", "StateName", "Shape"]
    static let derivedPrefixes = ["Async"]

    var viewModels: [ViewModel] = []
    var declarations: [GenDeclaration] = []

    init(types: [VMTypesMethod.TypeDescription]) {
        var reader = SchemaReader()
        var classNames: [String] = []
        for type in types {
            var className = reader.names.allocate(type.name)
            while !Self.claimDerived(of: className, in: &reader.names) {
                className = reader.names.allocate(className)
            }
            classNames.append(className)
        }
        for (type, className) in zip(types, classNames) {
            var model = ViewModel(name: type.name, summary: type.summary, className: className, args: nil,
                                  argsRequired: false, inputs: [], outputs: [], actions: [])
            if let properties = type.args["properties"]?.objectValue, !properties.isEmpty {
                model.args = reader.read(root: type.args, name: className + "Args")
                model.argsRequired = !(type.args["required"]?.arrayValue ?? []).isEmpty
            }
            let member = GenNames.typeIdentifier
            for input in type.inputs {
                model.inputs.append(Input(
                    name: input.name, summary: input.summary,
                    type: reader.read(root: input.schema, name: className + member(input.name)),
                    hasDefault: input.schema["default"] != nil))
            }
            for output in type.outputs {
                model.outputs.append(Output(
                    name: output.name, summary: output.summary,
                    type: reader.read(root: output.schema, name: className + member(output.name)),
                    isState: output.isState))
            }
            for action in type.actions {
                let input = reader.read(root: action.input, name: className + member(action.name) + "Input")
                model.actions.append(Action(
                    name: action.name, summary: action.summary, input: input,
                    output: reader.read(root: action.output, name: className + member(action.name) + "Result"),
                    inputOptional: action.input["default"] != nil || input.acceptsNull))
            }
            viewModels.append(model)
        }
        declarations = reader.declarations
    }

    /// Claims every name derived from `className`; false (claiming none) when one is taken.
    private static func claimDerived(of className: String, in names: inout GenNames) -> Bool {
        let derived = derivedSuffixes.map { className + $0 } + derivedPrefixes.flatMap { prefix in
            [prefix + className] + derivedSuffixes.map { prefix + className + $0 }
        }
        var probe = names
        for name in derived where !probe.claim(name) { return false }
        names = probe
        return true
    }
}
