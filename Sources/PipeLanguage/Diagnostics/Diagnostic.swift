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
    /// Extra facts printed after the diagnostic: `note: …`, or, for one that points at text,
    /// `file:line:col: note: …` with that line and a caret.
    public var notes: [Note]
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
        notes: [Note] = [], help: String? = nil, fixIts: [FixIt] = [], offset: Int = 0
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

    /// A note under a diagnostic: a fact that explains it, and where it points when it is about
    /// some text (`'s' was bound here`, at the name in its `let`).
    ///
    /// ```swift
    /// let (_, diagnostics) = session.compile("let n = just 1\nn.send 2", file: "a.pipe")
    /// diagnostics[0].notes[0].message            // "'n' was bound here"
    /// diagnostics[0].notes[0].range?.location    // a.pipe:1:5
    /// ```
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// One line, lower-case start, no trailing period.
        public var message: String
        /// The text it points at, or nil for a note about no text in particular. The range's
        /// offsets are in the text given to the `compile` that made it, which may be an earlier
        /// one (a binding made on an earlier REPL line).
        public var range: SourceRange?
        /// The 1-based line within the text given to `compile` when the note points into that
        /// text (rendering shows that line); nil when it points elsewhere or nowhere.
        var lineInSource: Int?

        /// A note; `range` when it points at text.
        public init(_ message: String, range: SourceRange? = nil) {
            self.message = message
            self.range = range
        }

        /// `note: message`, or `file:line:col: note: message` when it points at text.
        public var description: String { range.map { "\($0.location): note: \(message)" } ?? "note: \(message)" }
    }
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
