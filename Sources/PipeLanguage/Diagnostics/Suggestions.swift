/// Suggestions for misspelt names, by edit distance (as swift-argument-parser does for options).
/// The one edit distance of the package: the language's diagnostics and the shell's unknown
/// `:commands`, options and help topics all use it.
public enum Suggestions {
    /// The candidate closest to `name`, ignoring case, at distance < 4 and less than the name's
    /// length (at least 2); the first of equally close ones wins. A transposition counts as one edit.
    ///
    /// - Parameters:
    ///   - name: What was typed.
    ///   - candidates: The names it may have meant.
    /// - Returns: The suggestion, or nil when nothing is close enough.
    ///
    /// ```swift
    /// Suggestions.closest(to: "retyr", among: ["retry", "map"])   // "retry"
    /// Suggestions.closest(to: "HELP", among: ["help", "jobs"])    // "help"
    /// Suggestions.closest(to: "xyzzy", among: ["help", "jobs"])   // nil
    /// ```
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let a = Array(name.lowercased().unicodeScalars.prefix(64))
        guard !a.isEmpty else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let b = Array(candidate.lowercased().unicodeScalars.prefix(64))
            // The distance is at least the difference in length: skip what cannot be close.
            guard abs(a.count - b.count) < 4 else { continue }
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
