/// What a diagnostic id means, in the style of `rustc --explain`: what went wrong, a minimal
/// `.pipe` text that reports it, the same text fixed, and the Combine fact behind it where there
/// is one. Each layer keeps its explanations beside its codes (`LexerCode.explanation` …, one
/// file per layer in `Explanations/`); `plumb help E331` and `:help E331` print them.
///
/// A diagnostic no snippet can show (a limit, a state the checker already rules out) says how it
/// arises instead (`arises`), and has no example.
///
/// ```swift
/// let e = DiagnosticID.named("E331")!.explanation!
/// e.example  // "just 1 | merge (just \"a\")"
/// ```
public struct Explanation: Sendable, Hashable {
    /// What the diagnostic means, in a sentence or two.
    public let meaning: String
    /// A minimal `.pipe` text that reports this id and no other (nil when none can).
    public let example: String?
    /// `example` corrected: it does not report this id.
    public let fix: String?
    /// The Combine fact behind the rule, when there is one.
    public let combine: String?
    /// How the diagnostic arises, for one that no snippet can show.
    public let arises: String?

    /// An explanation with an example that reports the id and its fix.
    public init(_ meaning: String, example: String, fix: String, combine: String? = nil) {
        self.meaning = meaning
        self.example = example
        self.fix = fix
        self.combine = combine
        self.arises = nil
    }

    /// An explanation for an id no snippet can show: `arises` says how it comes about.
    public init(_ meaning: String, arises: String, combine: String? = nil) {
        self.meaning = meaning
        self.example = nil
        self.fix = nil
        self.combine = combine
        self.arises = arises
    }

    /// The explanation as `plumb help ID` prints it, under a first line the caller gives
    /// (`E331  kinds-do-not-join  (checker)`).
    ///
    /// - Parameters:
    ///   - heading: the id's line.
    ///   - when: when the id is reported (`found by the checker, before anything of the text runs`).
    /// - Returns: paragraphs separated by blank lines, examples indented by four spaces.
    public func text(heading: String, when: String) -> String {
        var parts = [heading + "\n  " + when, Self.wrapped(meaning)]
        if let example, let fix {
            parts.append("For example, this reports it:\n\n" + Self.indented(example))
            parts.append("Fixed:\n\n" + Self.indented(fix))
        }
        if let arises { parts.append(Self.wrapped("How it arises: " + arises)) }
        if let combine { parts.append(Self.wrapped("In Combine: " + combine)) }
        return parts.joined(separator: "\n\n")
    }

    /// The explanation as Markdown, for an editor's hover or a web page: the examples in
    /// fenced `pipe` code blocks.
    ///
    /// - Parameter heading: the first line, such as `E331 kinds-do-not-join`, shown in bold.
    /// - Returns: paragraphs separated by blank lines.
    public func markdown(heading: String) -> String {
        var parts = ["**\(heading)**", meaning]
        if let example, let fix {
            parts.append("For example, this reports it:\n\n```pipe\n\(example)\n```")
            parts.append("Fixed:\n\n```pipe\n\(fix)\n```")
        }
        if let arises { parts.append("How it arises: " + arises) }
        if let combine { parts.append("In Combine: " + combine) }
        return parts.joined(separator: "\n\n")
    }

    private static func indented(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// Wraps prose at 92 columns on spaces.
    private static func wrapped(_ prose: String, width: Int = 92) -> String {
        var lines: [String] = []
        var line = ""
        for word in prose.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}

extension DiagnosticID {
    /// This language id's explanation, from its layer's table (nil for another layer's id: the
    /// shell and the room keep theirs beside their codes).
    public var explanation: Explanation? {
        switch layer {
        case LexerCode.layer: LexerCode(rawValue: number)?.explanation
        case ParserCode.layer: ParserCode(rawValue: number)?.explanation
        case CheckerCode.layer: CheckerCode(rawValue: number)?.explanation
        case SessionCode.layer: SessionCode(rawValue: number)?.explanation
        case BuildCode.layer: BuildCode(rawValue: number)?.explanation
        case EvaluationCode.layer: EvaluationCode(rawValue: number)?.explanation
        default: nil
        }
    }
}
