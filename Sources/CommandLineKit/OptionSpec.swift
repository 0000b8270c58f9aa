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
public struct OptionSpec: Sendable, Hashable {
    /// How many values an option takes.
    public enum Kind: Sendable, Hashable {
        /// Present or absent; takes no value (`--json`).
        case flag
        /// Takes exactly one value (`--id ID`); giving it twice is a usage error.
        case value
        /// Takes one value each time it is given (`--arg K=V --arg K2=V2`).
        case repeatable
    }

    /// The long name without the leading dashes: `"socket"` for `--socket`.
    public var long: String
    /// The optional one-character short name without the dash: `"s"` for `-s`.
    public var short: Character?
    /// Flag, single value, or repeatable value.
    public var kind: Kind
    /// The placeholder shown in help and errors: `PATH` in `--socket PATH`. Unused for flags.
    public var valueName: String
    /// The value used when nothing else sets the option, shown in help as `default: ...`.
    public var defaultValue: String?
    /// One or two sentences for the help table.
    public var help: String
    /// The environment variable that can set this option (`VMD_SOCKET`), if any.
    public var environment: String?
    /// The key that sets this option in a config file, if any.
    public var configKey: String?
    /// The only values accepted, for enumerations like `coalesce|disconnect`; empty means any.
    public var allowedValues: [String]
    /// Hidden options are parsed but left out of help and completion scripts.
    public var isHidden: Bool

    /// Creates an option; prefer ``flag(_:short:help:environment:configKey:isHidden:)`` and its
    /// siblings, which read better at the call site.
    public init(
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
    public static func flag(
        _ long: String, short: Character? = nil, help: String,
        environment: String? = nil, configKey: String? = nil, isHidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, kind: .flag, help: help, environment: environment,
            configKey: configKey, isHidden: isHidden)
    }

    /// An option taking one value: `--long VALUE`, `--long=VALUE` or `-s VALUE`.
    public static func value(
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
    public static func repeatable(
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
    public var displayName: String { "--" + long }

    /// Whether the option can come from outside the command line (environment or config file).
    /// Only such options take part in ``ConfigurationResolver`` and `--print-config`.
    public var isConfigurable: Bool { environment != nil || configKey != nil }
}
