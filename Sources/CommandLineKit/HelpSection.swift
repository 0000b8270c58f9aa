/// An extra titled table at the end of a command's help, such as "Exit codes" or "Environment".
package struct HelpSection: Sendable, Hashable {
    /// The heading, printed as `Title:`.
    package var title: String
    /// Rows of (term, definition), rendered as an aligned two-column table.
    package var rows: [Row]

    /// One row of the table.
    package struct Row: Sendable, Hashable {
        /// The left column, e.g. `2`.
        package var term: String
        /// The right column, wrapped, e.g. `usage error`.
        package var definition: String
        /// Creates a row.
        package init(_ term: String, _ definition: String) {
            self.term = term
            self.definition = definition
        }
    }

    /// Creates a section.
    package init(_ title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }
}
