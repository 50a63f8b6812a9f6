enum EvaluationCode: Int, DiagnosticCode {
    static let layer = "evaluation"
    case unclassifiedEvaluation = 600
}
