/// One named option of a command: `--long`, optionally `-s`, as a flag, a single value, or a
/// repeatable value.
///
/// An option may also be read from an environment variable and from a config-file key; see
/// ``ConfigurationResolver`` for the precedence rule (flag > environment > file > default).
///
/// ```swift
/// let slowClient = OptionSpec.value(
///     "slow-client", valueName: "POLICY", default: "coalesce",
///     allowedValues: ["coalesce", "disconnect"],
///     help: "What to do with a client that reads too slowly.",
///     environment: "VMD_SLOW_CLIENT", configKey: "slow-client")
/// ```
package struct OptionSpec: Sendable, Hashable {
    /// How many values an option takes.
    package enum Kind: Sendable, Hashable {
        /// Present or absent; takes no value (`--json`).
        case flag
        /// Takes exactly one value (`--id ID`); giving it twice is a usage error.
        case value
        /// Takes one value each time it is given (`--arg K=V --arg K2=V2`).
        case repeatable
    }

    /// The long name without the leading dashes: `"socket"` for `--socket`.
    package var long: String
    /// The optional one-character short name without the dash: `"s"` for `-s`.
    package var short: Character?
    /// Flag, single value, or repeatable value.
    package var kind: Kind
    /// The placeholder shown in help and errors: `PATH` in `--socket PATH`. Unused for flags.
    package var valueName: String
    /// The value used when nothing else sets the option, shown in help as `default: ...`.
    package var defaultValue: String?
    /// One or two sentences for the help table.
    package var help: String
    /// The environment variable that can set this option (`VMD_SOCKET`), if any.
    package var environment: String?
    /// The key that sets this option in a config file, if any.
    package var configKey: String?
    /// The only values accepted, for enumerations like `coalesce|disconnect`; empty means any.
    package var allowedValues: [String]
    /// Hidden options are parsed but left out of help and completion scripts.
    package var isHidden: Bool

    /// Creates an option; prefer ``flag(_:short:help:environment:configKey:isHidden:)`` and its
    /// siblings, which read better at the call site.
    package init(
        long: String, short: Character? = nil, kind: Kind, valueName: String = "VALUE",
        defaultValue: String? = nil, help: String, environment: String? = nil,
        configKey: String? = nil, allowedValues: [String] = [], isHidden: Bool = false
    ) {
        self.long = long
        self.short = short
        self.kind = kind
        self.valueName = valueName
        self.defaultValue = defaultValue
        self.help = help
        self.environment = environment
        self.configKey = configKey
        self.allowedValues = allowedValues
        self.isHidden = isHidden
    }

    /// A flag: `--long` (or `-s`), true when given.
    package static func flag(
        _ long: String, short: Character? = nil, help: String,
        environment: String? = nil, configKey: String? = nil, isHidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, kind: .flag, help: help, environment: environment,
            configKey: configKey, isHidden: isHidden)
    }

    /// An option taking one value: `--long VALUE`, `--long=VALUE` or `-s VALUE`.
    package static func value(
        _ long: String, short: Character? = nil, valueName: String = "VALUE",
        default defaultValue: String? = nil, allowedValues: [String] = [], help: String,
        environment: String? = nil, configKey: String? = nil, isHidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, kind: .value, valueName: valueName,
            defaultValue: defaultValue, help: help, environment: environment,
            configKey: configKey, allowedValues: allowedValues, isHidden: isHidden)
    }

    /// An option that may be given many times, each time with one value.
    package static func repeatable(
        _ long: String, short: Character? = nil, valueName: String = "VALUE",
        allowedValues: [String] = [], help: String,
        environment: String? = nil, configKey: String? = nil, isHidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, kind: .repeatable, valueName: valueName, help: help,
            environment: environment, configKey: configKey, allowedValues: allowedValues,
            isHidden: isHidden)
    }

    /// `--long`, the spelling used in messages.
    package var displayName: String { "--" + long }

    /// Whether the option can come from outside the command line (environment or config file).
    /// Only such options take part in ``ConfigurationResolver`` and `--print-config`.
    package var isConfigurable: Bool { environment != nil || configKey != nil }
}
