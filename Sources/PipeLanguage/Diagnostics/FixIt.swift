/// An edit that fixes a diagnostic: replace `length` UTF-8 bytes at `offset` (in the text given to
/// `Session.compile`) with `replacement`.
///
/// ```swift
/// let fix = diagnostics[0].fixIts[0]    // "retyr" → "retry"
/// fix.applied(to: "just 1 | retyr 3")   // "just 1 | retry 3"
/// ```
public struct FixIt: Sendable, Hashable {
    /// UTF-8 offset of the text to replace.
    public var offset: Int
    /// UTF-8 length of the text to replace (0 inserts).
    public var length: Int
    /// The new text.
    public var replacement: String

    /// Creates an edit.
    public init(offset: Int, length: Int, replacement: String) {
        self.offset = offset
        self.length = length
        self.replacement = replacement
    }

    /// `text` with this edit made; `text` unchanged when the range does not fit it.
    public func applied(to text: String) -> String {
        var bytes = Array(text.utf8)
        guard offset >= 0, length >= 0, offset + length <= bytes.count else { return text }
        bytes.replaceSubrange(offset..<(offset + length), with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension FixIt {
    /// `text` with the first fix-it of each error made, or nil when no error has one (or they
    /// change nothing). Fix-its are made from the last to the first, so earlier offsets stay
    /// valid; one that overlaps an earlier one, or starts where it does, is skipped.
    ///
    /// ```swift
    /// let (_, d) = session.compile("just 1 | retyr 3", file: "<repl>")
    /// FixIt.applyingFirstFixes(of: d, to: "just 1 | retyr 3")   // "just 1 | retry 3"
    /// ```
    public static func applyingFirstFixes(of diagnostics: [Diagnostic], to text: String) -> String? {
        let fixes = diagnostics.filter { $0.severity == .error }.compactMap(\.fixIts.first).sorted { $0.offset < $1.offset }
        var kept: [FixIt] = []
        for fix in fixes {
            if let last = kept.last, fix.offset < last.offset + last.length || fix.offset == last.offset { continue }
            kept.append(fix)
        }
        guard !kept.isEmpty else { return nil }
        let result = kept.reversed().reduce(text) { $1.applied(to: $0) }
        return result == text ? nil : result
    }
}
