/// The resolved value of every configurable option, each with where it came from; what
/// `vmd --print-config` prints.
package struct EffectiveConfiguration: Sendable, Hashable {
    /// One resolved option.
    package struct Setting: Sendable, Hashable {
        /// The option.
        package var option: OptionSpec
        /// Its values: one for a flag (`"true"`/`"false"`) or a value option, any number for a
        /// repeatable option, none when unset.
        package var values: [String]
        /// The layer that provided the values.
        package var source: ValueSource

        /// Creates a setting.
        package init(option: OptionSpec, values: [String], source: ValueSource) {
            self.option = option
            self.values = values
            self.source = source
        }

        /// The name shown by `--print-config`: the config key, else the long option name.
        package var key: String { option.configKey ?? option.long }
    }

    /// Settings in the order the options were declared.
    package var settings: [Setting]

    /// Creates a configuration from settings.
    package init(settings: [Setting]) {
        self.settings = settings
    }

    /// The setting of the option with this long name, if it is configurable.
    package func setting(_ long: String) -> Setting? {
        settings.first { $0.option.long == long }
    }

    /// The value of a value option (the last, for a repeatable one), or nil when unset.
    package func value(_ long: String) -> String? { setting(long)?.values.last }

    /// Every value of a repeatable option.
    package func values(_ long: String) -> [String] { setting(long)?.values ?? [] }

    /// Whether a flag resolved to true.
    package func flag(_ long: String) -> Bool { value(long) == "true" }

    /// Where the option's value came from.
    package func source(_ long: String) -> ValueSource? { setting(long)?.source }

    /// The value parsed as an integer, or nil when unset.
    /// - Throws: ``ConfigurationError`` at the value's source when it is not an integer.
    package func int(_ long: String) throws(ConfigurationError) -> Int? {
        guard let setting = setting(long), let text = setting.values.last else { return nil }
        guard let number = Int(text) else {
            let name = setting.source == .commandLine(option: setting.option.displayName) ? "" : " for \(setting.key)"
            throw ConfigurationError("invalid value '\(text)'\(name): expected an integer", at: setting.source)
        }
        return number
    }

    /// The configuration as config-file lines with provenance comments, aligned, ending with a
    /// newline. Pasting the output into a config file reproduces the configuration:
    ///
    /// ```
    /// socket          = "/run/user/1000/vmd.sock"  # flag --socket
    /// slow-client     = "disconnect"               # env VMD_SLOW_CLIENT
    /// max-connections = 100                        # file /home/ann/.config/vmd/vmd.toml:3
    /// foreground      = false                      # default
    /// # exit-when-idle is not set
    /// ```
    package func rendered() -> String {
        let keyWidth = settings.filter { $0.source != .unset }.map(\.key.count).max() ?? 0
        let assignments = settings.map { setting -> String? in
            guard setting.source != .unset else { return nil }
            return setting.key + String(repeating: " ", count: keyWidth - setting.key.count) + " = " + literal(setting)
        }
        let valueWidth = assignments.compactMap { $0?.count }.max() ?? 0
        var lines: [String] = []
        for (setting, assignment) in zip(settings, assignments) {
            if let assignment {
                lines.append(assignment + String(repeating: " ", count: valueWidth - assignment.count) + "  # \(setting.source)")
            } else {
                lines.append("# \(setting.key) is not set")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A setting's value in config-file syntax: flags and integers bare, strings quoted,
    /// repeatable options as a list.
    private func literal(_ setting: Setting) -> String {
        func one(_ text: String) -> String {
            Self.isPlainInteger(text) ? text : ConfigValue.quoted(text)
        }
        switch setting.option.kind {
        case .flag: return setting.values.last ?? "false"
        case .value: return setting.values.last.map(one) ?? "\"\""
        case .repeatable: return "[" + setting.values.map(one).joined(separator: ", ") + "]"
        }
    }

    /// `42`, `-7`: text that reads back as the same integer (no `+`, no leading zeros).
    private static func isPlainInteger(_ text: String) -> Bool {
        guard let number = Int(text) else { return false }
        return String(number) == text
    }
}
