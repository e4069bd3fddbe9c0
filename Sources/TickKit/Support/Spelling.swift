/// Did-you-mean: the closest known word to a typo (command names, filter keys).
public enum Spelling {
    /// The name closest to `word` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours), when it is close enough to be
    /// a typo: 1 edit for words of up to 4 letters, 2 for longer ones; or the
    /// one name that `word` (2 letters or more) begins.
    public static func closest(to word: String, among names: [String]) -> String? {
        let lower = word.lowercased()
        let allowed = lower.count <= 4 ? 1 : 2
        let scored = names.map { (name: $0, distance: editDistance(lower, $0)) }
            .filter { $0.distance <= allowed }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        if let best = scored.first { return best.name }
        let prefixed = names.filter { lower.count >= 2 && $0.hasPrefix(lower) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance (Levenshtein plus swaps of two neighbours).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
