/// A value in the declarative subset of Swift that Package.swift is written in.
indirect enum ManifestValue: Equatable, CustomStringConvertible {
    /// `"text"` (escapes other than `\"` and `\\` are kept as written).
    case string(String)
    /// `[a, b, c]`.
    case array([ManifestValue])
    /// `.name(label: value, value)` or `Name(...)`; the arguments in order, unlabelled ones with `nil`.
    case call(String, [(label: String?, value: ManifestValue)])
    /// `.name` without arguments, such as `.v6`.
    case member(String)
    /// A number or a bare identifier, as written.
    case word(String)

    /// The value of the argument labelled `label`, when this is a call that has one.
    func argument(_ label: String) -> ManifestValue? {
        guard case .call(_, let arguments) = self else { return nil }
        return arguments.first { $0.label == label }?.value
    }

    var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .call(let name, let arguments):
            let written = arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.description }
            return ".\(name)(" + written.joined(separator: ", ") + ")"
        case .member(let name): return ".\(name)"
        case .word(let word): return word
        }
    }

    static func == (lhs: ManifestValue, rhs: ManifestValue) -> Bool {
        lhs.description == rhs.description
    }
}
