enum CheckerCode: Int, DiagnosticCode {
    static let layer = "checker"
    case unclassifiedChecker = 300
    case unclassifiedWarning = 990
}
