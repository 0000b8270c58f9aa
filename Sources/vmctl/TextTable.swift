/// Aligned columns for people: a header in bold (on a terminal), each column as wide as its
/// widest cell, two spaces between columns, the last column not padded.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }

    mutating func add(_ cells: String...) { rows.append(cells) }
    mutating func add(row cells: [String]) { rows.append(cells) }

    func render(into console: Console, indent: String = "") {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        if !headers.allSatisfy(\.isEmpty) {
            console.line(indent + console.styled(line(headers, widths), Style.bold))
        }
        for row in rows { console.line(indent + line(row, widths)) }
    }

    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index == cells.count - 1 {
                text += cell
            } else {
                let width = index < widths.count ? widths[index] : cell.count
                text += cell + String(repeating: " ", count: max(0, width - cell.count) + 2)
            }
        }
        // A trailing empty column leaves spaces behind.
        while text.last == " " { text.removeLast() }
        return text
    }
}
