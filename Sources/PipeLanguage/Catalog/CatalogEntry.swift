/// One source, operator or terminal of the language, as `:help`, completion, argument checking,
/// the static pass and the graph builder all see it. Everything about an entry is written in one
/// place, its family's file under `Catalog/Entries/`.
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
    public var kind: Kind { build.kind }
    /// The argument signature, e.g. `scan INITIAL { $0 + $1 }` (overloads separated by newlines).
    public var signature: String
    /// One line.
    public var summary: String
    /// The Combine equivalent, e.g. `.scan(_:_:)`.
    public var combine: String
    /// A pipeline using it (runs as written).
    public var example: String

    /// The argument labels the entry accepts (`maxPublishers` for `flatMap`), each once, in the
    /// order of its overloads, with the placeholder the signature shows for its value.
    public var argumentLabels: [(label: String, placeholder: String)] {
        var seen = Set<String>()
        return overloads.flatMap { $0 }.compactMap { parameter in
            guard let label = parameter.label, seen.insert(label).inserted else { return nil }
            return (label, parameter.placeholder)
        }
    }

    /// `signature: …` with overloads joined by "or", for notes (made once, not per check).
    var signatureNote: String

    /// Argument lists this entry accepts; the first whose labels and kinds fit is used.
    var overloads: [[Parameter]]
    /// How the entry becomes part of a running graph.
    var build: EntryBuild
    /// Static pass: output kind and whether the stage can fail.
    var infer: Inference
    /// Warned at the stage when its upstream can never fail (`retry has no effect: …`). Made when
    /// warned, not with the catalog: a message's id names its code by reflection, which costs
    /// about a millisecond the first time, at every start of plumb.
    var noEffectUnlessUpstreamFails: (@Sendable () -> Message)?
    /// The argument whose values join upstream's in one output (`append`, `merge`, `replaceError`
    /// …): Combine's signature needs one Output type for both, so kinds that cannot be one type
    /// (an Int and a String) are a static error at that argument.
    var joinsArgument: Int? = nil
    /// An eager source (`subject`, `currentValue`, `future`): a `let` makes one instance that every
    /// use of the binding shares.
    var hot: HotBuilder?
    /// A `let` of this source alone accepts `NAME.send`, `NAME.finish` and `NAME.fail`.
    var isSubject: Bool = false
    /// `channel`: a `let` of it alone accepts `NAME.send` (which waits for a reader) and
    /// `NAME.finish`, and a pipeline naming that binding first starts on the async side.
    var isChannel: Bool = false
    /// Allowed first or after `|` (`todo`, the workshop's placeholder).
    var anyPosition: Bool = false
    /// Checks an entry's own argument syntax beyond kinds (the `marble` string): problems at spans.
    var validate: (@Sendable (ArgumentValidation) -> [(Message, Span)])?
    /// A hot operator (`share`): in a binding, the pipeline up to it is built once, when the `let`
    /// runs, and every use shares it, as the same Swift value would be shared.
    var sharesUpstream: Bool = false
    /// The stage as Swift Combine code against `Reactive` (`:swift`, `plumb swift`).
    var swift: SwiftTranslation? = nil
    /// Its twin on the async side (after `values` or `stream`): the same name resolves to it there.
    var async: AsyncForm? = nil
    /// A stage that crosses between publishers and async sequences (`values`, `stream`, `publisher`).
    var crossing: Crossing? = nil

    /// The sides this entry has a form on: an entry without an async twin is a publisher's only;
    /// an async-only entry (`adjacentPairs`) is the async side's only; a crossing stands on the
    /// side it leaves.
    public var sides: Set<Side> {
        if let crossing { return [crossing == .publisher ? .async : .publisher] }
        if case .asyncOnly = build { return [.async] }
        return async == nil ? [.publisher] : [.publisher, .async]
    }

    /// Whether it crosses between publishers and async sequences (`values`, `stream`, `publisher`).
    public var isCrossing: Bool { crossing != nil }
    /// Its async twin's Swift form, for `:help` (nil for a publisher-only entry).
    public var asyncSwift: String? { async?.swift }
    /// What differs between its two forms (nil when it has one form, or nothing differs).
    public var asyncDifference: String? { async?.difference }
}

/// How an entry is built: sources and operators make a publisher, terminals subscribe to one.
enum EntryBuild: Sendable {
    case source(Builder)
    case `operator`(Builder)
    case terminal(TerminalBuilder)
    /// An operator with no publisher form (`adjacentPairs`): its `async` form is the one.
    case asyncOnly

    var kind: CatalogEntry.Kind {
        switch self {
        case .source: .source
        case .operator, .asyncOnly: .operator
        case .terminal: .terminal
        }
    }
}

/// Makes a source's or operator's publisher from its checked stage.
typealias Builder = @Sendable (StageBuild) throws -> ValuePublisher

/// Makes an eager source's one shared instance.
typealias HotBuilder = @Sendable (StageBuild) throws -> HotSource

/// Subscribes a terminal to the built pipeline and reports events.
typealias TerminalBuilder = @Sendable (TerminalStart) -> Void

/// What a terminal gets: the built publisher, the runtime, where events go, and `register`, which
/// it must call with its cancel before subscribing (false: the run was cancelled meanwhile, so it
/// must not subscribe).
struct TerminalStart {
    let publisher: ValuePublisher
    let runtime: Runtime
    let events: EventSerializer
    let register: (@escaping @Sendable () -> Void) -> Bool
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
    /// A duration above zero (`interval`'s period, `collect byTime:`'s window).
    case period
    /// A message: a string, or a closure over `$0` whose result is printed (`handleEvents`' hooks).
    case message
    /// An expression closure taking this many arguments.
    case closure(arity: Int)
    /// A closure holding a pipeline (`{ just $0 }`), with what `$0` is inside it.
    case pipelineClosure(ClosureInput)
    /// A publisher: `( pipeline )`, a binding name, or a pipeline closure.
    case publisher
    /// A fixed word, like `value` in `future delay 200 value 42`.
    case keyword(String)
    /// An array or a closed range (for `from`).
    case sequence
    /// asyncMap's step: `delay D`, `delay D { expr }`, `flaky N`, `fail "message"` or `{ expr }`.
    case step
}

/// What `$0` holds inside a pipeline closure.
enum ClosureInput: Sendable, Hashable {
    /// Nothing meaningful (`deferred { … }`: `$0` is nil).
    case none
    /// The upstream value (`flatMap { just $0 }`).
    case upstreamValue
    /// The failure's message (`catch { just $0 }`).
    case errorMessage

    /// The kinds the checker gives `$0` (and `$1`) inside the closure.
    func dollarKinds(upstream: Shape) -> [ValueKind] {
        switch self {
        case .none: [.any]
        case .upstreamValue: [upstream.kind]
        case .errorMessage: [.string]
        }
    }
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

/// Shorthand for the entry files: `p("COUNT", .count)`.
func p(_ placeholder: String, _ kind: ParameterKind, label: String? = nil, optional: Bool = false, labelRequired: Bool = false) -> Parameter {
    Parameter(label: label, placeholder: placeholder, kind: kind, optional: optional, labelRequired: labelRequired)
}

extension CatalogEntry {
    /// An entry; its signature is written from the overloads' parameters.
    init(
        _ name: String, aliases: [String] = [], _ overloads: [[Parameter]],
        summary: String, combine: String, example: String, build: EntryBuild, infer: @escaping Inference,
        noEffectUnlessUpstreamFails: (@Sendable () -> Message)? = nil, hot: HotBuilder? = nil, isSubject: Bool = false,
        isChannel: Bool = false, sharesUpstream: Bool = false, validate: (@Sendable (ArgumentValidation) -> [(Message, Span)])? = nil,
        anyPosition: Bool = false, joinsArgument: Int? = nil, swift: SwiftTranslation? = nil, async: AsyncForm? = nil,
        crossing: Crossing? = nil
    ) {
        let signature = overloads.map { params in
            ([name]
                + params.map { param in
                    var text = param.label.map { "\($0): " } ?? ""
                    switch param.kind {
                    case .closure, .pipelineClosure: text += "{ \(param.placeholder) }"
                    case .publisher: text += "(\(param.placeholder))"
                    case .keyword(let w): text += w
                    default: text += param.placeholder
                    }
                    return param.optional ? "[\(text)]" : text
                }).joined(separator: " ")
        }.joined(separator: "\n")
        self.init(
            name: name, aliases: aliases, signature: signature, summary: summary, combine: combine, example: example,
            signatureNote: "signature: " + signature.split(separator: "\n").joined(separator: " or "),
            overloads: overloads, build: build, infer: infer, noEffectUnlessUpstreamFails: noEffectUnlessUpstreamFails,
            hot: hot, isSubject: isSubject, anyPosition: anyPosition, validate: validate, sharesUpstream: sharesUpstream, swift: swift)
        self.joinsArgument = joinsArgument
        self.isChannel = isChannel
        self.async = async
        self.crossing = crossing
    }
}

/// What an entry's `validate` sees: its matched arguments and the text they are in.
struct ArgumentValidation {
    let arguments: [Argument?]
    let source: SourceText

    /// The string literal at `i`, with the span of its contents when it is written without
    /// escapes (so a problem can point at the character), else the literal's span.
    func stringLiteral(_ i: Int) -> (text: String, contents: Span, exact: Bool)? {
        guard i < arguments.count, let a = arguments[i], case .expr(let e) = a.value,
            case .literal(.string(let text)) = e.kind
        else { return nil }
        let written = source.text(e.span)
        let exact = written == "\"" + text + "\""
        return (text, exact ? Span(e.span.offset + 1, text.utf8.count) : e.span, exact)
    }
}
