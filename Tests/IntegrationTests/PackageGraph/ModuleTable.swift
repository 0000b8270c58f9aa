import Foundation

/// The module table of the Architecture article (``document``): the rows between its
/// `module graph: begin` and `end` markers.
///
/// A row is `| layer | `module` … | `import`, `import` or — | job |`: the first backticked
/// name of the second cell is the module, every backticked name of the third its imports.
struct ModuleTable: Equatable {
    struct Row: Equatable {
        var layer: Int
        var module: String
        var imports: [String]
    }

    /// Why the article's table could not be read.
    struct ReadingError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Where the table is drawn, from the repository root.
    static let document = "Sources/ViewModelDaemon/ViewModelDaemon.docc/Architecture.md"
    /// How a problem with the table names the document.
    static let documentName = "Architecture.md"
    static let beginMarker = "<!-- module graph: begin"
    static let endMarker = "<!-- module graph: end -->"

    var rows: [Row]

    init(rows: [Row]) { self.rows = rows }

    /// Reads the table out of `text`, the text of ``document``.
    init(text: String) throws(ReadingError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let begin = lines.firstIndex(where: { $0.hasPrefix(Self.beginMarker) }) else {
            throw ReadingError(description: "\(Self.documentName) has no line starting \(Self.beginMarker)")
        }
        guard let end = lines[begin...].firstIndex(where: { $0.hasPrefix(Self.endMarker) }) else {
            throw ReadingError(description: "\(Self.documentName) has no \(Self.endMarker) after the begin marker")
        }
        var rows: [Row] = []
        for (offset, line) in lines[(begin + 1)..<end].enumerated() {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            // "| a | b | c | d |" splits into six cells, the first and last empty.
            guard cells.count == 6, cells[0].isEmpty, cells[5].isEmpty else {
                throw ReadingError(description: "\(Self.documentName) line \(begin + 2 + offset) is not a four-column table row: \(line)")
            }
            if cells[1] == "layer" || cells[1].allSatisfy({ $0 == "-" || $0 == ":" }) { continue }
            guard let layer = Int(cells[1]) else {
                throw ReadingError(description: "\(Self.documentName) line \(begin + 2 + offset): layer \"\(cells[1])\" is not a number")
            }
            guard let module = Self.codeSpans(in: cells[2]).first else {
                throw ReadingError(description: "\(Self.documentName) line \(begin + 2 + offset): no `module` in \"\(cells[2])\"")
            }
            let imports = Self.codeSpans(in: cells[3])
            guard !imports.isEmpty || cells[3] == "—" else {
                throw ReadingError(description: "\(Self.documentName) line \(begin + 2 + offset): imports \"\(cells[3])\" are neither `names` nor —")
            }
            rows.append(Row(layer: layer, module: module, imports: imports))
        }
        self.rows = rows
    }

    /// The texts between pairs of backticks in `cell`.
    static func codeSpans(in cell: String) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }
}
