// Transitional: messages not yet given an id of their own. Removed once every layer has its codes.
enum LexerCode: Int, DiagnosticCode {
    static let layer = "lexer"
    case unclassifiedLexer = 100
}

enum ParserCode: Int, DiagnosticCode {
    static let layer = "parser"
    case unclassifiedParser = 200
}

enum EvaluationCode: Int, DiagnosticCode {
    static let layer = "evaluation"
    case unclassifiedEvaluation = 600
}

enum SessionCode: Int, DiagnosticCode {
    static let layer = "session"
    case unclassifiedSession = 400
}

enum BuildCode: Int, DiagnosticCode {
    static let layer = "build"
    case unclassifiedBuild = 500
}

enum CheckerCode: Int, DiagnosticCode {
    static let layer = "checker"
    case unclassifiedChecker = 300
    case unclassifiedWarning = 990
}

extension SourceText {
    func diagnostic(
        _ severity: Diagnostic.Severity = .error, _ message: String, at span: Span,
        notes: [String] = [], fixIt: String? = nil
    ) -> Diagnostic {
        let m = severity == .warning ? Message(CheckerCode.unclassifiedWarning, message) : Message(ParserCode.unclassifiedParser, message)
        return diagnostic(m, at: span, notes: notes, help: fixIt)
    }
}
