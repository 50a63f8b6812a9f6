/// A position in a source text: file name, 1-based line and 1-based column (in Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to `Session.compile` (`<stdin>`, `<repl>`, a path).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A positioned error, warning or note about a `.pipe` text.
///
/// ```swift
/// let (_, diagnostics) = session.compile("just 1 | retyr 3", file: "<repl>")
/// print(diagnostics[0].rendered(source: "just 1 | retyr 3", color: false))
/// // <repl>:1:10: error: unknown operator 'retyr'
/// // just 1 | retyr 3
/// //          ^~~~~
/// // help: did you mean 'retry'?
/// print(diagnostics[0].id)          // E302 unknown-operator
/// ```
public struct Diagnostic: Error, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: Sendable, Hashable { case error, warning, note }

    /// Error, warning or note.
    public var severity: Severity
    /// One line, lower-case start, no trailing period.
    public var message: String
    /// Where the culprit starts.
    public var location: SourceLocation
    /// How many Unicode scalars the culprit spans on its line (at least 0).
    public var length: Int
    /// The stable id: `E302 unknown-operator`.
    public var id: DiagnosticID
    /// Extra lines printed as `note: …`.
    public var notes: [String]
    /// Advice printed as `help: …` (for instance `did you mean 'retry'?`).
    public var help: String?
    /// Edits that fix the problem (the REPL offers the first as the next line).
    public var fixIts: [FixIt]
    /// UTF-8 offset of the culprit in the text given to `compile` (for tools and tests).
    public var offset: Int
    /// The line within the text given to `compile` (differs from `location.line` when `firstLine` != 1).
    var lineInSource: Int

    /// Creates a diagnostic.
    public init(
        id: DiagnosticID, message: String, location: SourceLocation, length: Int = 1,
        notes: [String] = [], help: String? = nil, fixIts: [FixIt] = [], offset: Int = 0
    ) {
        self.severity = id.severity
        self.id = id
        self.message = message
        self.location = location
        self.length = length
        self.notes = notes
        self.help = help
        self.fixIts = fixIts
        self.offset = offset
        self.lineInSource = location.line
    }

    /// `file:line:col: error: message`.
    public var description: String { "\(location): \(severity.word): \(message)" }
}

extension Diagnostic.Severity {
    /// `error`, `warning` or `note`.
    public var word: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }
}
