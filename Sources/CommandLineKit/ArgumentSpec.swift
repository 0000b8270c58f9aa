/// One positional argument of a command, such as `INSTANCE` in `vmctl get INSTANCE OUTPUT`.
///
/// Declare required arguments first, then optional ones, then at most one variadic argument,
/// last: the parser fills them in that order.
package struct ArgumentSpec: Sendable, Hashable {
    /// How many words an argument takes.
    package enum Arity: Sendable, Hashable {
        /// Exactly one word; missing it is a usage error.
        case required
        /// Zero or one word.
        case optional
        /// Every remaining word (zero or more).
        case variadic
    }

    /// The placeholder shown in usage and help, also the key for ``ParsedCommand/positional(_:)``.
    package var name: String
    /// Required, optional or variadic.
    package var arity: Arity
    /// One sentence for the help table.
    package var help: String
    /// The only values accepted; empty means any.
    package var allowedValues: [String]

    /// Creates a positional argument.
    package init(_ name: String, arity: Arity = .required, allowedValues: [String] = [], help: String) {
        self.name = name
        self.arity = arity
        self.allowedValues = allowedValues
        self.help = help
    }

    /// The argument as written in a usage line: `NAME`, `[NAME]` or `[NAME]...`.
    package var usageText: String {
        switch arity {
        case .required: name
        case .optional: "[\(name)]"
        case .variadic: "[\(name)]..."
        }
    }
}
