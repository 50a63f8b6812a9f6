enum BuildCode: Int, DiagnosticCode {
    static let layer = "build"
    case unclassifiedBuild = 500
}
