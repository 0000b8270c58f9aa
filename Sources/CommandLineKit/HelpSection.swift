/// An extra titled table at the end of a command's help, such as "Exit codes" or "Environment".
public struct HelpSection: Sendable, Hashable {
    /// The heading, printed as `Title:`.
    public var title: String
    /// Rows of (term, definition), rendered as an aligned two-column table.
    public var rows: [Row]

    /// One row of the table.
    public struct Row: Sendable, Hashable {
        /// The left column, e.g. `2`.
        public var term: String
        /// The right column, wrapped, e.g. `usage error`.
        public var definition: String
        /// Creates a row.
        public init(_ term: String, _ definition: String) {
            self.term = term
            self.definition = definition
        }
    }

    /// Creates a section.
    public init(_ title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }
}
