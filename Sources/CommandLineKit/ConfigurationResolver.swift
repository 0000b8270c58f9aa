/// Resolves every configurable option (one with an environment variable or a config key) from
/// four layers, first match wins, and records where each value came from:
///
/// 1. the command line (`--max-connections 10`),
/// 2. the environment variable (`VMD_MAX_CONNECTIONS=10`; an empty variable counts as unset),
/// 3. the config file (`max-connections = 10`),
/// 4. the option's default.
///
/// Layers are not merged: a repeatable option set on the command line ignores the file's list.
/// Every layer is validated even when a higher one wins, so a broken file or variable is
/// reported rather than silently shadowed. Unknown config-file keys are errors.
///
/// Environment values: a flag accepts `1/true/yes/on` and `0/false/no/off`; a repeatable
/// option takes a comma-separated list.
///
/// ```swift
/// let resolver = ConfigurationResolver(options: vmdSpec.options)
/// let config = try resolver.resolve(commandLine: parsed, environment: env, file: file)
/// print(config.rendered(), terminator: "")   // vmd --print-config
/// ```
package struct ConfigurationResolver: Sendable {
    /// The options that take part: those with an environment variable or a config key.
    package var options: [OptionSpec]

    /// Creates a resolver over the configurable ones among `options`.
    package init(options: [OptionSpec]) {
        self.options = options.filter(\.isConfigurable)
    }

    /// Creates a resolver over the configurable options in effect for `path` below `root`.
    package init(root: CommandSpec, path: [String] = []) {
        self.init(options: CommandSpec.options(inEffectFor: root.chain(for: path) ?? [root]))
    }

    /// Resolves every option.
    /// - Parameters:
    ///   - commandLine: the parsed command line, or nil to skip that layer.
    ///   - environment: the process environment (or the part of it to consider).
    ///   - file: the parsed config file, or nil when there is none.
    /// - Throws: ``ConfigurationError`` for an unknown file key, or a value of the wrong type
    ///   or outside the allowed values in any layer.
    package func resolve(
        commandLine: ParsedCommand?, environment: [String: String], file: ConfigFile?
    ) throws(ConfigurationError) -> EffectiveConfiguration {
        if let file { try checkKeys(of: file) }
        var settings: [EffectiveConfiguration.Setting] = []
        for option in options {
            let fromFile = try fileValues(for: option, in: file)
            let fromEnvironment = try environmentValues(for: option, in: environment)
            let fromCommandLine = try commandLineValues(for: option, in: commandLine)
            let setting: EffectiveConfiguration.Setting
            if let fromCommandLine {
                setting = .init(option: option, values: fromCommandLine, source: .commandLine(option: option.displayName))
            } else if let fromEnvironment, let variable = option.environment {
                setting = .init(option: option, values: fromEnvironment, source: .environment(variable: variable))
            } else if let fromFile {
                setting = .init(option: option, values: fromFile.values, source: .file(path: fromFile.path, line: fromFile.line))
            } else if let defaultValue = option.defaultValue {
                setting = .init(option: option, values: [defaultValue], source: .defaultValue)
            } else if option.kind == .flag {
                setting = .init(option: option, values: ["false"], source: .defaultValue)
            } else {
                setting = .init(option: option, values: [], source: .unset)
            }
            settings.append(setting)
        }
        return EffectiveConfiguration(settings: settings)
    }

    // MARK: - Layers

    private func checkKeys(of file: ConfigFile) throws(ConfigurationError) {
        let keys = options.compactMap(\.configKey)
        for entry in file.entries where !keys.contains(entry.key) {
            let suggestions = Suggestions.closest(to: entry.key, among: keys)
            let hint = suggestions.isEmpty
                ? "; known keys: " + keys.joined(separator: ", ")
                : "; did you mean \(Suggestions.quotedList(suggestions))?"
            throw ConfigurationError("unknown key '\(entry.key)'" + hint, at: .file(path: file.path, line: entry.line))
        }
    }

    private func commandLineValues(for option: OptionSpec, in parsed: ParsedCommand?) throws(ConfigurationError) -> [String]? {
        guard let given = parsed?.optionValues[option.long] else { return nil }
        // The parser already checked allowed values; flags are recorded as empty strings.
        return option.kind == .flag ? ["true"] : given
    }

    private func environmentValues(for option: OptionSpec, in environment: [String: String]) throws(ConfigurationError) -> [String]? {
        guard let variable = option.environment, let text = environment[variable], !text.isEmpty else { return nil }
        let source = ValueSource.environment(variable: variable)
        switch option.kind {
        case .flag:
            switch text.lowercased() {
            case "1", "true", "yes", "on": return ["true"]
            case "0", "false", "no", "off": return ["false"]
            default:
                throw ConfigurationError("invalid value '\(text)': expected true or false (also 1/0, yes/no, on/off)", at: source)
            }
        case .value:
            try check([text], against: option, at: source)
            return [text]
        case .repeatable:
            let items = text.split(separator: ",").map { Self.trimmed($0) }.filter { !$0.isEmpty }
            try check(items, against: option, at: source)
            return items
        }
    }

    private func fileValues(for option: OptionSpec, in file: ConfigFile?) throws(ConfigurationError) -> (values: [String], path: String, line: Int)? {
        guard let file, let key = option.configKey, let entry = file.entry(key) else { return nil }
        let source = ValueSource.file(path: file.path, line: entry.line)
        let values: [String]
        switch (option.kind, entry.value) {
        case (.flag, .boolean(let flag)):
            values = [flag ? "true" : "false"]
        case (.flag, let other):
            throw ConfigurationError("key '\(key)' expects true or false, not \(other.kindName) (\(other))", at: source)
        case (.value, .string(let text)):
            values = [text]
        case (.value, .integer(let number)):
            values = [String(number)]
        case (.value, let other):
            throw ConfigurationError("key '\(key)' expects a single string or integer, not \(other.kindName) (\(other))", at: source)
        case (.repeatable, .array(let elements)):
            values = try elements.map { (element) throws(ConfigurationError) -> String in
                switch element {
                case .string(let text): return text
                case .integer(let number): return String(number)
                default:
                    throw ConfigurationError("key '\(key)' expects a list of strings, but an element is \(element.kindName) (\(element))", at: source)
                }
            }
        case (.repeatable, .string(let text)):
            values = [text]
        case (.repeatable, .integer(let number)):
            values = [String(number)]
        case (.repeatable, let other):
            throw ConfigurationError("key '\(key)' expects a list of strings, not \(other.kindName) (\(other))", at: source)
        }
        try check(values, against: option, at: source)
        return (values, file.path, entry.line)
    }

    private func check(_ values: [String], against option: OptionSpec, at source: ValueSource) throws(ConfigurationError) {
        guard !option.allowedValues.isEmpty else { return }
        for value in values where !option.allowedValues.contains(value) {
            let nearest = Suggestions.closest(to: value, among: option.allowedValues)
            let hint = nearest.isEmpty ? "" : "; did you mean \(Suggestions.quotedList(nearest))?"
            throw ConfigurationError(
                "invalid value '\(value)': expected one of " + option.allowedValues.joined(separator: ", ") + hint,
                at: source)
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        var slice = text
        while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
        while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
