// Transitional: the string form of `diagnostic`, for call sites not yet given an id. Removed once
// every layer uses its messages.
extension SourceText {
    func diagnostic(
        _ severity: Diagnostic.Severity = .error, _ message: String, at span: Span,
        notes: [String] = [], fixIt: String? = nil
    ) -> Diagnostic {
        let m = Message(ParserCode.unclassifiedParser, message)
        return diagnostic(m, at: span, notes: notes, help: fixIt)
    }
}
