enum ParserCode: Int, DiagnosticCode {
    static let layer = "parser"
    case unclassifiedParser = 200
}
