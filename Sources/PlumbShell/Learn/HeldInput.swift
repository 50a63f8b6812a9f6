/// A solution's `# hidden input: PIPELINE` line as a template: each `{{LOW...HIGH}}` in it is a
/// whole number drawn in that range on every check (`from 1...{{600...999}}`, `interval
/// {{20...45}}ms`), so the input a learner may once have seen is not the one the next check runs.
///
/// ```swift
/// HeldInput.drawn("take {{8...14}} | todo", avoiding: [12], using: &generator)   // "take 9 | todo"
/// ```
enum HeldInput {
    /// `template` with every `{{LOW...HIGH}}` replaced by a number in LOW...HIGH, none of `avoiding`
    /// when the range has another (the numbers an answer names cannot be the ones drawn). With
    /// `past`, a number above every one of `avoiding` inside the range, when the range goes past
    /// them: an answer that stops at a number it names (`$0 < 777 ? $0 + 1 : 777`) meets an input
    /// beyond it in that draw, whatever the others drew.
    static func drawn(
        _ template: String, avoiding named: Set<Int>, past: Bool = false, using generator: inout some RandomNumberGenerator
    ) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "}}"), let range = Self.range(after[..<close.lowerBound]) else {
                out += "{{"
                rest = after
                continue
            }
            var free = range.filter { !named.contains($0) }
            if past, let largest = named.filter(range.contains).max(), free.contains(where: { $0 > largest }) {
                free = free.filter { $0 > largest }
            }
            out += String((free.isEmpty ? Array(range) : free).randomElement(using: &generator) ?? range.lowerBound)
            rest = after[close.upperBound...]
        }
        return out + rest
    }

    /// `600...999` read as a range; nil for anything else (LOW above HIGH too).
    static func range(_ text: Substring) -> ClosedRange<Int>? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        guard text.contains("..."), parts.count == 2, let low = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let high = Int(parts[1].trimmingCharacters(in: .whitespaces)), low <= high
        else { return nil }
        return low...high
    }

    /// Every whole number written in `text` (`$0 < 777 ? $0 + 1 : 777` names 0 and 777, `$0`'s 0
    /// included: drawing it would do no harm but says nothing).
    static func wholeNumbers(in text: String) -> [Int] {
        var numbers: [Int] = []
        var digits = ""
        for character in text + " " {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if !digits.isEmpty {
                if let n = Int(digits) { numbers.append(n) }
                digits = ""
            }
        }
        return numbers
    }
}
