/// A diagnostic's stable identity: a code (`E301`) and a name (`unknown-operator`), so a message
/// can be found, listed (`plumb help diagnostics`) and tested by id however its wording changes.
///
/// Each layer declares its codes as the cases of one `DiagnosticCode` enum next to its messages
/// (`Syntax/LexerMessages.swift`, `Semantics/CheckerMessages.swift`, …); `DiagnosticID.all`
/// gathers them, so the list can never miss one.
///
/// ```swift
/// let (_, d) = session.compile("just 1 | retyr 3", file: "<repl>")
/// d[0].id.code   // "E302"
/// d[0].id.name   // "unknown-operator"
/// ```
public struct DiagnosticID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `E` and a number for errors, `W` for warnings: `E302`.
    public let code: String
    /// Lower-case words joined by dashes: `unknown-operator`.
    public let name: String
    /// Which layer reports it: `lexer`, `parser`, `checker`, `session`, `build` or `evaluation`.
    public let layer: String
    /// Whether it is an error or a warning.
    public let severity: Diagnostic.Severity
    let number: Int

    /// `E302 unknown-operator`.
    public var description: String { "\(code) \(name)" }

    public static func < (a: DiagnosticID, b: DiagnosticID) -> Bool { a.number < b.number }

    /// Every diagnostic any layer can produce, by code.
    public static var all: [DiagnosticID] {
        (LexerCode.ids + ParserCode.ids + CheckerCode.ids + SessionCode.ids + BuildCode.ids + EvaluationCode.ids).sorted()
    }

    /// The one line printed after diagnostics that says how to read their explanations, as
    /// rustc's "For more information about this error, try `rustc --explain E0308`".
    ///
    /// - Parameters:
    ///   - ids: The ids shown (repeats are said once, in the order given).
    ///   - interactive: At the prompt (`:help E302`) rather than in a script or a terminal
    ///     command (`plumb help E302`).
    /// - Returns: The line without a newline, or nil when `ids` is empty.
    ///
    /// ```swift
    /// DiagnosticID.explanationHint(for: [e302], interactive: false)
    /// // "for more about this error, run `plumb help E302`"
    /// ```
    public static func explanationHint(for ids: [DiagnosticID], interactive: Bool) -> String? {
        var codes: [String] = []
        for id in ids where !codes.contains(id.code) { codes.append(id.code) }
        guard !codes.isEmpty else { return nil }
        let command = { (code: String) in interactive ? "`:help \(code)`" : "`plumb help \(code)`" }
        let kind = ids.allSatisfy { $0.severity == .warning } ? "warning" : "error"
        let verb = interactive ? "type" : "run"
        if codes.count == 1 { return "for more about this \(kind), \(verb) \(command(codes[0]))" }
        return "for more about these \(kind)s, \(verb) \(codes.map(command).joined(separator: ", "))"
    }

    /// The id with this code or name (`E302`, `unknown-operator`), ignoring case.
    public static func named(_ codeOrName: String) -> DiagnosticID? {
        let key = codeOrName.lowercased()
        return all.first { $0.code.lowercased() == key || $0.name == key }
    }
}

/// One layer's diagnostic codes. A case's raw value is its number (warnings from 900 up), its
/// Swift name becomes the id's dashed name (`unknownOperator` → `unknown-operator`).
///
/// Public so a layer outside the language (the shell's 7xx) declares its codes the same way.
public protocol DiagnosticCode: CaseIterable, RawRepresentable where RawValue == Int {
    /// The layer's name, as `plumb help diagnostics` shows it: `lexer`, `shell` …
    static var layer: String { get }
}

extension DiagnosticCode {
    /// The id: `E` or `W` and the number, the case's name in dashes, the layer.
    public var id: DiagnosticID {
        let severity: Diagnostic.Severity = rawValue >= 900 ? .warning : .error
        let number = String(rawValue)
        let code = (severity == .warning ? "W" : "E") + String(repeating: "0", count: max(0, 3 - number.count)) + number
        return DiagnosticID(code: code, name: Self.dashed(String(describing: self)), layer: Self.layer, severity: severity, number: rawValue)
    }

    /// Every case's id.
    public static var ids: [DiagnosticID] { allCases.map(\.id) }

    private static func dashed(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase {
                out += "-" + ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }
}

/// A diagnostic's id with its text, made by a layer's message constructors
/// (`Message.unknownOperator("retyr")`); the layer adds the position.
struct Message: Sendable, Hashable {
    let id: DiagnosticID
    let text: String

    init<C: DiagnosticCode>(_ code: C, _ text: String) {
        self.id = code.id
        self.text = text
    }

    init(id: DiagnosticID, text: String) {
        self.id = id
        self.text = text
    }
}
