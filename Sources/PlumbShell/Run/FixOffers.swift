import Foundation
import PipeLanguage

/// The REPL's fix-it offers: while a typed line runs, the first diagnostics with fix-its found in
/// it (or a misspelt `:command`) make the corrected line, which the REPL then offers once.
///
/// ```swift
/// var fixes = FixOffers()
/// fixes.begin("just 1 | retyr 3")
/// fixes.consider(diagnostics, source: "just 1 | retyr 3", firstLine: 1)
/// fixes.end()
/// fixes.take()   // "just 1 | retry 3"
/// ```
struct FixOffers {
    /// The REPL line being run, whose failures may be offered fixed.
    private var line: String?
    /// The line to offer after it failed with fix-its.
    private var offer: String?

    /// A typed line starts running: nothing is offered yet.
    mutating func begin(_ line: String) {
        self.line = line
        offer = nil
    }

    /// The typed line has run; its offer, if any, waits for `take()`.
    mutating func end() { line = nil }

    /// Offers the line with `:name` corrected to `:suggestion`.
    mutating func offerCommand(_ suggestion: String, for name: String) {
        guard let line, let range = line.range(of: ":" + name) else { return }
        offer = line.replacingCharacters(in: range, with: ":" + suggestion)
    }

    /// Diagnostics about `source`: when it is the typed line itself and they hold an error, the
    /// line with their first fix-its applied is the offer (the first such set wins).
    mutating func consider(_ diagnostics: [Diagnostic], source: String, firstLine: Int) {
        if let line, source == line, firstLine == 1, offer == nil, diagnostics.contains(where: { $0.severity == .error }) {
            offer = FixIt.applyingFirstFixes(of: diagnostics, to: line)
        }
    }

    /// The corrected line to offer, once.
    mutating func take() -> String? {
        defer { offer = nil }
        return offer
    }
}
