/// Word wrapping and two-column tables for help text, measured in Characters (help is meant
/// to be plain ASCII or at least single-width text).
enum TextLayout {
    /// Wraps `text` to `width` columns. Line breaks in `text` are kept (an empty line stays an
    /// empty paragraph break); the first line starts with `firstPrefix`, the others with `prefix`.
    /// A word longer than the line is put on a line of its own, never split.
    static func wrap(_ text: String, width: Int, firstPrefix: String = "", prefix: String = "") -> [String] {
        var lines: [String] = []
        var isFirst = true
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = isFirst ? firstPrefix : prefix
            var lineHasWord = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if lineHasWord && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = prefix
                    lineHasWord = false
                }
                line += (lineHasWord ? " " : "") + word
                lineHasWord = true
            }
            lines.append(lineHasWord ? line : trimmedTrailingSpaces(line))
            isFirst = false
        }
        return lines
    }

    /// An indented two-column table: terms on the left, wrapped definitions aligned on the right.
    /// A term too wide for the left column gets a line of its own, its definition below it.
    /// `termWidth` forces the left column's width, so that several tables can line up.
    static func table(
        _ rows: [(term: String, definition: String)], width: Int, indent: Int = 2, termWidth: Int? = nil
    ) -> [String] {
        let termWidth = termWidth ?? self.termWidth(of: rows.map(\.term))
        let column = indent + termWidth + 2
        let hanging = String(repeating: " ", count: column)
        var lines: [String] = []
        for row in rows {
            let head = String(repeating: " ", count: indent) + row.term
            if row.definition.isEmpty {
                lines.append(head)
            } else if row.term.count > termWidth {
                lines.append(head)
                lines += wrap(row.definition, width: width, firstPrefix: hanging, prefix: hanging)
            } else {
                let padded = head + String(repeating: " ", count: column - head.count)
                lines += wrap(row.definition, width: width, firstPrefix: padded, prefix: hanging)
            }
        }
        return lines
    }

    /// The left-column width for these terms: the widest, but at most 26 so that one long term
    /// does not push every definition to the right.
    static func termWidth(of terms: [String]) -> Int {
        min(terms.map(\.count).max() ?? 0, 26)
    }

    private static func trimmedTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
