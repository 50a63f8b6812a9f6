/// Suggestions for misspelt names, by edit distance (as swift-argument-parser does for options).
enum Suggestions {
    /// The closest candidate at distance < 4 (and less than the name's length), or nil.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let a = Array(name.lowercased().unicodeScalars.prefix(64))
        guard !a.isEmpty else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let b = Array(candidate.lowercased().unicodeScalars.prefix(64))
            let d = distance(a, b)
            if d < 4, d < max(a.count, 2), best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// Damerau-Levenshtein (optimal string alignment) distance, so `retyr` → `retry` is 1.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
