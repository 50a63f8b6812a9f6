/// One source, operator or terminal of the language, as `:help`, completion, argument checking,
/// the static pass and the graph builder all see it.
public struct CatalogEntry: Sendable {
    /// What a stage is.
    public enum Kind: Sendable, Hashable {
        /// Starts a pipeline (`just`, `interval`, …).
        case source
        /// Transforms a publisher (`map`, `retry`, …).
        case `operator`
        /// Ends a pipeline and subscribes (`sink`, `values`, `async`).
        case terminal
    }

    /// The name people type.
    public var name: String
    /// Other names for the same entry (`take` for `prefix`).
    public var aliases: [String]
    /// Source, operator or terminal.
    public var kind: Kind
    /// The argument signature, e.g. `scan INITIAL { $0 + $1 }` (overloads separated by newlines).
    public var signature: String
    /// One line.
    public var summary: String
    /// The Combine equivalent, e.g. `.scan(_:_:)`.
    public var combine: String
    /// A pipeline using it (runs as written).
    public var example: String

    /// `signature: …` with overloads joined by "or", for notes (made once, not per check).
    var signatureNote: String

    /// Argument lists this entry accepts; the first whose labels and kinds fit is used.
    var overloads: [[Parameter]]
    /// Builds the `Reactive` publisher (nil for terminals, which `PipelineRun.start` handles).
    var build: Builder?
    /// Static pass: output kind and whether the stage can fail.
    var infer: Inference
}

/// What a parameter accepts.
enum ParameterKind: Sendable, Hashable {
    /// A non-negative Int.
    case count
    /// Any Int.
    case int
    /// A positive Int (at least 1).
    case positive
    /// Any value (a literal or, inside a pipeline closure, an expression over `$0`).
    case value
    /// A string.
    case string
    /// A Bool.
    case bool
    /// A duration: `100ms`, `1.5s`, or a bare number of milliseconds.
    case duration
    /// An expression closure taking this many arguments.
    case closure(arity: Int)
    /// A closure holding a pipeline (`{ just $0 }`).
    case pipelineClosure
    /// A publisher: `( pipeline )`, a binding name, or a pipeline closure.
    case publisher
    /// A fixed word, like `value` in `future delay 200 value 42`.
    case keyword(String)
    /// An array or a closed range (for `from`).
    case sequence
    /// asyncMap's step: `delay D`, `delay D { expr }`, `flaky N`, `fail "message"` or `{ expr }`.
    case step
}

/// One parameter: its Combine label (if it takes one), a placeholder for the signature, its kind.
struct Parameter: Sendable, Hashable {
    var label: String?
    var placeholder: String
    var kind: ParameterKind
    var optional: Bool = false
    /// Labels accepted for positional use: a labelled parameter may also be given positionally.
    var labelRequired: Bool = false
}
