enum LexerCode: Int, DiagnosticCode {
    static let layer = "lexer"
    case unclassifiedLexer = 100
}
