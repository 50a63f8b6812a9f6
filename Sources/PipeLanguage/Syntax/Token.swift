/// A lexical token. Operators and punctuation are `.punct` with their spelling.
enum TokenKind: Sendable, Hashable {
    case identifier(String)
    case dollar(Int)
    case int(Int)
    case double(Double)
    /// Nanoseconds, plus the spelling for the printer.
    case duration(Int64)
    case string([StringToken])
    case punct(String)
    /// `:name rest-of-line` at the start of a statement.
    /// Ends a statement (a newline outside brackets that does not follow `|`).
    case newline
    case eof
}

/// A piece of a string literal: text, or the byte range of an interpolated expression `\( … )`.
enum StringToken: Sendable, Hashable {
    case text(String)
    case interpolation(offset: Int, length: Int)
}

struct Token: Sendable {
    var kind: TokenKind
    var span: Span

    var punct: String? { if case .punct(let p) = kind { p } else { nil } }
    var identifier: String? { if case .identifier(let p) = kind { p } else { nil } }
    func isPunct(_ p: String) -> Bool { if case .punct(let q) = kind { q == p } else { false } }
}
