/// "Did you mean ...?" candidates for a mistyped word, by edit distance.
///
/// The distance is optimal string alignment (Levenshtein plus swapping two neighbours), so the
/// most common typo, two transposed letters (`--jsno`), costs 1 like a single wrong letter.
package enum Suggestions {
    /// The candidates closest to `word`, nearest first, among those close enough to be a
    /// plausible typo (at most one edit per three characters, at least one edit allowed), then
    /// those that start with `word` (two characters or more). Ties keep the order of `candidates`.
    package static func closest(to word: String, among candidates: [String]) -> [String] {
        let typed = Array(word.unicodeScalars)
        let threshold = max(1, typed.count / 3)
        var best: [(distance: Int, candidate: String)] = []
        for candidate in candidates where candidate != word {
            let distance = editDistance(typed, Array(candidate.unicodeScalars))
            if distance <= threshold {
                best.append((distance, candidate))
            }
        }
        var result: [String] = []
        if let smallest = best.map(\.distance).min() {
            result = best.filter { $0.distance == smallest }.map(\.candidate)
        }
        // A prefix is what an impatient typist leaves: `stat` may well mean `status`.
        if typed.count >= 2 {
            result += candidates.filter { $0 != word && $0.hasPrefix(word) && !result.contains($0) }
        }
        return result
    }

    /// The optimal-string-alignment distance between two scalar sequences.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rolling rows: the transposition rule looks two rows back.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: a list of quoted words for a sentence.
    static func quotedList(_ words: [String], conjunction: String = "or") -> String {
        let quoted = words.map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        if quoted.count == 1 { return last }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
