/// What an editor needs to know about a compiled text, as data: its `let` bindings with their
/// inferred types, every use of a binding, and every stage with its catalog entry and the type
/// after it (a statement's own stages have the types `:type` shows, `Session.types(of:)`; stages
/// of nested pipelines the static pass's). Made from `Session.compile`'s statements, so it is the
/// checked tree's view, never a re-parse. Offsets and lengths are UTF-8 bytes in the text given to
/// `compile`.
///
/// ```swift
/// let (statements, _) = Session(runtime: Runtime(clock: .virtual)).compile("let t = just 1\nt | sink", file: "a.pipe")
/// let outline = SourceOutline(statements)
/// outline.bindings[0].type.output   // "Int"
/// outline.stages[0].type.output     // "Int" (after `just 1`)
/// outline.references[0].name        // "t" (offset 15)
/// ```
public struct SourceOutline: Sendable {
    /// `let NAME = …`.
    public struct Binding: Sendable, Hashable {
        public var name: String
        /// Where `NAME` is.
        public var nameOffset: Int
        public var nameLength: Int
        /// The whole statement.
        public var offset: Int
        public var length: Int
        /// The pipeline's Combine type (`AnyPublisher<Int, Never>` as its description).
        public var type: PublisherType
        /// The pipeline as written.
        public var text: String
    }

    /// A binding's name used as a stage or an argument.
    public struct Reference: Sendable, Hashable {
        public var name: String
        public var offset: Int
        public var length: Int
    }

    /// One stage (nested pipelines' stages too).
    public struct Stage: Sendable, Hashable {
        /// As written.
        public var name: String
        /// Where the name is.
        public var nameOffset: Int
        public var nameLength: Int
        /// Where the whole stage (name and arguments) ends.
        public var end: Int
        /// The catalog entry's name; nil for a binding used as a stage.
        public var entry: String?
        /// The publisher's type after the stage: its output in Swift spelling (`Int`, `[String]`)
        /// and whether it can fail.
        public var type: PublisherType
    }

    public private(set) var bindings: [Binding] = []
    public private(set) var references: [Reference] = []
    public private(set) var stages: [Stage] = []

    /// The outline of `statements` (the ones `compile` returned, in order).
    public init(_ statements: [Statement]) {
        // The bindings each statement sees: those of the statements before it.
        var scope: [String: BindingInfo] = [:]
        for statement in statements {
            guard let pipeline = statement.checked else { continue }
            references += pipeline.bindingReferences.map { Reference(name: $0.name, offset: $0.span.offset, length: $0.span.length) }
            add(pipeline, types: PipelineTypes(statement, bindings: scope)?.stages.map(\.type))
            if case .bind(let name, let pipeline, let info) = statement.statement,
                case .binding(_, let nameSpan, _) = statement.ast.kind
            {
                bindings.append(
                    Binding(
                        name: name, nameOffset: nameSpan.offset, nameLength: nameSpan.length, offset: statement.ast.span.offset,
                        length: statement.ast.span.length, type: PublisherType(info.shape), text: statement.source.text(pipeline.ast.span)))
                scope[name] = info
            }
        }
        stages.sort { $0.nameOffset < $1.nameOffset }
    }

    /// `types`: the types `:type` shows for the pipeline's own stages; nested ones have the static pass's.
    private mutating func add(_ pipeline: CheckedPipeline, types: [PublisherType]? = nil) {
        for (i, stage) in pipeline.stages.enumerated() {
            stages.append(
                Stage(
                    name: stage.stage.name, nameOffset: stage.stage.nameSpan.offset, nameLength: stage.stage.nameSpan.length,
                    end: stage.stage.span.offset + stage.stage.span.length, entry: stage.entry?.name,
                    type: types.flatMap { i < $0.count ? $0[i] : nil } ?? PublisherType(stage.shape)))
            for nested in stage.nested.values {
                switch nested {
                case .pipeline(let inner): add(inner)
                case .choice(let choice): choice.pipelines.forEach { add($0) }
                case .binding: break
                }
            }
        }
    }

    /// The binding a use of `name` at `offset` names: the latest `let` of that name whose
    /// statement ends before the use (`let d = d | map …` uses the `d` before it).
    public func binding(named name: String, usedAt offset: Int) -> Binding? {
        bindings.last { $0.name == name && $0.offset + $0.length <= offset }
    }
}
