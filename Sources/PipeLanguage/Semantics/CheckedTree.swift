/// What the checker knows about a binding.
struct BindingInfo: Sendable {
    var shape: Shape
    var isSubject: Bool
    var text: String
    /// Where the name is in its `let` (notes point there: "'s' was bound here").
    var name: SourceRange
    /// How many operators a use of the binding builds (`CheckedPipeline.size`).
    var size: Int = 1
    /// `let c = channel`: it accepts `send` and `finish`, and a pipeline naming it first starts
    /// on the async side.
    var isChannel = false
    /// A channel after `c.finish` ran (or, within one text, was checked): a later send is E334.
    var isFinished = false
}

/// A stage after name resolution and argument matching.
struct CheckedStage: Sendable {
    enum Target: Sendable {
        case entry(Int)
        case binding(String)
    }
    var stage: Stage
    var target: Target
    var overload: Int
    /// Arguments by parameter index.
    var arguments: [Argument?]
    /// The publishers among the arguments, checked once, by parameter index.
    var nested: [Int: NestedPublisher] = [:]
    var shape: Shape
    /// What flows into the stage: the shape of the stage before it (`Value` for a source).
    var input = Shape(kind: .any, canFail: false)

    var entry: CatalogEntry? { if case .entry(let i) = target { Catalog.table[i] } else { nil } }
    var displayName: String { stage.name }
    /// This stage's operators, with its nested pipelines; a binding's whole expansion.
    var size: Int = 1
    /// Where a `todo` stands in this stage's arguments: running the stage fails there.
    var todo: Span?
    /// The side the stage runs on: a publisher, or an async sequence after `values` or `stream`.
    /// A crossing stage (`values`, `publisher`) has the side it crosses to.
    var side: Side = .publisher
}

extension Int {
    /// `self + other`, at most `Int.max`.
    func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

/// A publisher argument after checking: a nested pipeline (`(just 1)`, `{ just $0 }`) with its
/// stages and shape, or a binding's name with the shape it had when checked.
enum NestedPublisher: Sendable {
    case pipeline(CheckedPipeline)
    case binding(String, Shape)
    /// `{ cond ? (a) : (b) }`: one of the pipelines, chosen per value.
    case choice(CheckedChoice)

    var shape: Shape {
        switch self {
        case .pipeline(let p): p.shape
        case .binding(_, let shape): shape
        case .choice(let c): c.shape
        }
    }

    /// Operators one build makes (a choice builds one branch: the larger counts).
    var size: Int {
        switch self {
        case .pipeline(let p): p.size
        case .binding: 1
        case .choice(let c): c.size
        }
    }
}

/// A checked `cond ? a : b` over publishers.
indirect enum CheckedChoice: Sendable {
    case pipeline(CheckedPipeline)
    /// The condition, whether evaluating it can fail (known kinds cannot), and the branches.
    case choice(Expr, conditionCanFail: Bool, CheckedChoice, CheckedChoice)

    /// The union of the branches; a condition that can fail (a type error) can fail the stage.
    var shape: Shape {
        switch self {
        case .pipeline(let p): return p.shape
        case .choice(_, let conditionCanFail, let a, let b):
            return Shape(kind: a.shape.kind.merged(b.shape.kind), canFail: a.shape.canFail || b.shape.canFail || conditionCanFail)
        }
    }

    var size: Int {
        switch self {
        case .pipeline(let p): p.size
        case .choice(_, _, let a, let b): max(a.size, b.size)
        }
    }

    var pipelines: [CheckedPipeline] {
        switch self {
        case .pipeline(let p): [p]
        case .choice(_, _, let a, let b): a.pipelines + b.pipelines
        }
    }
}

/// A pipeline after checking: its stages (without the terminal), the terminal entry, and every
/// nested pipeline checked in place, so inference and the builder never check again.
struct CheckedPipeline: Sendable {
    var stages: [CheckedStage]
    /// The terminal's catalog index (`sink` when none is written).
    var terminal: Int
    var ast: PipelineAST
    var shape: Shape { stages.last?.shape ?? Shape(kind: .any, canFail: false) }

    var terminalEntry: CatalogEntry { Catalog.table[terminal] }

    /// How many operators one build makes: each stage, its nested pipelines, and every binding
    /// named, expanded (saturating, so `let a = b | merge (b)` chains cannot overflow it).
    var size: Int { stages.reduce(0) { $0.addingSaturated($1.size) } }

    /// Every binding this pipeline names, here or in a nested pipeline, with the span naming it.
    var bindingReferences: [(name: String, span: Span)] {
        var out: [(String, Span)] = []
        for stage in stages {
            if case .binding(let name) = stage.target { out.append((name, stage.stage.nameSpan)) }
            for index in stage.nested.keys.sorted() {
                switch stage.nested[index]! {
                case .pipeline(let inner): out += inner.bindingReferences
                case .binding(let name, _): out.append((name, stage.arguments[index]?.span ?? stage.stage.nameSpan))
                case .choice(let choice): out += choice.pipelines.flatMap(\.bindingReferences)
                }
            }
        }
        return out
    }
}

/// A statement after checking: everything `Session.execute` needs, with its constants evaluated
/// once, here, so `execute` only meets what the session's state can still get wrong.
enum CheckedStatement: Sendable {
    /// A pipeline to run (`&`: as a background job).
    case run(CheckedPipeline, background: Bool)
    /// `let name = pipeline`, with what later statements know about the name.
    case bind(name: String, CheckedPipeline, BindingInfo)
    /// `s.send value`.
    case send(subject: String, subjectSpan: Span, Value)
    /// `s.finish`.
    case finish(subject: String, subjectSpan: Span)
    /// `s.fail "message"`: the failure's text and where it is written.
    case fail(subject: String, subjectSpan: Span, message: String, messageSpan: Span)
    /// `expect …`, evaluated.
    case expect(Expectation)

    /// The checked pipeline of a pipeline or `let` statement.
    var pipeline: CheckedPipeline? {
        switch self {
        case .run(let pipeline, _), .bind(_, let pipeline, _): pipeline
        default: nil
        }
    }
}
