/// A parsed config file: `key = value` lines in the TOML subset described in
/// <doc:ConfigFileFormat>. The caller reads the file (this module does no I/O) and passes its
/// text; keys are checked against the spec later, by ``ConfigurationResolver``.
///
/// ```swift
/// let file = try ConfigFile(parsing: "socket = \"/run/vmd.sock\"\n", path: "vmd.toml")
/// file.entry("socket")?.value   // .string("/run/vmd.sock")
/// ```
package struct ConfigFile: Sendable, Hashable {
    /// One `key = value` line.
    package struct Entry: Sendable, Hashable {
        /// The key as written.
        package var key: String
        /// The parsed value.
        package var value: ConfigValue
        /// The 1-based line number, for provenance and error messages.
        package var line: Int

        /// Creates an entry.
        package init(key: String, value: ConfigValue, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }

    /// The path shown in provenance and errors (as the caller named the file).
    package var path: String
    /// The entries in file order; keys are unique.
    package var entries: [Entry]

    /// Creates a config file from already-parsed entries.
    package init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries
    }

    /// Parses the text of a config file.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - path: the file's path, used in errors and provenance.
    /// - Throws: ``ConfigurationError`` at `path:line` saying what was wrong and how to write it.
    package init(parsing text: String, path: String) throws(ConfigurationError) {
        self.path = path
        self.entries = try ConfigFileParser(path: path).parse(text)
    }

    /// The entry for `key`, if the file sets it.
    package func entry(_ key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    /// The conventional place of an application's config file: `$XDG_CONFIG_HOME/DIR/FILE`,
    /// else `$HOME/.config/DIR/FILE`; nil when neither variable is set to an absolute path.
    package static func standardPath(directory: String, fileName: String, environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/" + directory + "/" + fileName
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.config/" + directory + "/" + fileName
        }
        return nil
    }
}
