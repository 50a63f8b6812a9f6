enum SessionCode: Int, DiagnosticCode {
    static let layer = "session"
    case unclassifiedSession = 400
}
