import Foundation
import Synchronization

/// Every pipeline is built over one element and failure type, so stages compose freely.
typealias ValuePublisher = ValueStream

/// The type-erased publisher between stages.
///
/// Why not `AnyPublisher`: its box forwards `receive(subscriber:)` through a generic class method,
/// so every operator behind it runs unspecialised and looks up generic metadata for each value
/// (measured: 3.6 µs per element for `dsl-chain`). Here the subscribe closure is made where the
/// publisher's type is concrete, and subscribers cross the boundary as `AnySubscriber<Value, Error>`,
/// so each operator's code is specialised for the types it really runs with.
struct ValueStream: Publisher, @unchecked Sendable {
    // @unchecked: like AnyPublisher's box, it holds an immutable publisher value to subscribe to.
    typealias Output = Value
    typealias Failure = any Error

    let subscribe: (StreamSubscriber) -> Void

    init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == any Error {
        if let already = publisher as? ValueStream {
            self = already
        } else {
            subscribe = { publisher.receive(subscriber: $0) }
        }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == any Error {
        subscribe(subscriber as? StreamSubscriber ?? StreamSubscriber(subscriber))
    }
}

/// The subscriber crossing a `ValueStream` boundary: a class, so operators that copy their
/// downstream for each value retain one reference, and closures made where `S` is concrete.
final class StreamSubscriber: Subscriber, CustomStringConvertible {
    typealias Input = Value
    typealias Failure = any Error
    let combineIdentifier: CombineIdentifier
    let onSubscription: (any Subscription) -> Void
    let onValue: (Value) -> Subscribers.Demand
    let onCompletion: (Subscribers.Completion<any Error>) -> Void
    let description: String

    init<S: Subscriber>(_ subscriber: S) where S.Input == Value, S.Failure == any Error {
        combineIdentifier = subscriber.combineIdentifier
        onSubscription = subscriber.receive(subscription:)
        onValue = subscriber.receive(_:)
        onCompletion = subscriber.receive(completion:)
        description = "\(type(of: subscriber))"
    }

    func receive(subscription: any Subscription) { onSubscription(subscription) }
    func receive(_ input: Value) -> Subscribers.Demand { onValue(input) }
    func receive(completion: Subscribers.Completion<any Error>) { onCompletion(completion) }
}

extension Publisher where Output == Value, Failure == any Error {
    /// Erases to the stream type stages are built over.
    func valueStream() -> ValueStream { ValueStream(self) }
}

typealias Builder = @Sendable (StageBuild) throws -> ValuePublisher

/// What a builder gets: the upstream publisher, the checked stage, the closure arguments in scope
/// (inside a pipeline closure, `$0`), and the run's context.
struct StageBuild {
    let context: BuildContext
    let upstream: ValuePublisher
    let stage: CheckedStage
    let env: ClosureArguments
    let source: SourceText
    let depth: Int

    var arguments: [Argument?] { stage.arguments }
    func argument(_ i: Int) -> Argument? { i < stage.arguments.count ? stage.arguments[i] : nil }
    var name: String { stage.stage.name }
    var location: SourceLocation { source.location(of: stage.stage.nameSpan.offset) }

    func error(_ message: String) -> PipelineError { PipelineError(message: message, location: location) }

    /// Evaluates an expression argument in the current scope.
    func value(_ i: Int) throws -> Value {
        guard let a = argument(i), case .expr(let e) = a.value else { throw error("\(name): missing value") }
        return try ExpressionCompiler(source: source).compile(e)(env)
    }

    func int(_ i: Int, minimum: Int = 0) throws -> Int {
        let v = try value(i)
        guard case .int(let n) = v, n >= minimum else {
            throw error("\(name) expects \(minimum == 0 ? "a non-negative" : "a positive") integer, got \(v)")
        }
        return n
    }

    func duration(_ i: Int) throws -> Int64 {
        guard let a = argument(i) else { throw error("\(name): missing duration") }
        if case .duration(let ns) = a.value { return ns }
        guard case .expr(let e) = a.value else { throw error("\(name) expects a duration") }
        let v = try ExpressionCompiler(source: source).compile(e)(env)
        switch Durations.nanoseconds(fromMilliseconds: v) {
        case .success(let ns): return ns
        case .failure(let p): throw error("\(name) expects \(p.text), got \(v)")
        }
    }

    func closure(_ i: Int) throws -> CompiledExpression {
        guard let a = argument(i), case .closure(let c) = a.value, case .expression(let e) = c.body else {
            throw error("\(name): missing closure")
        }
        return ExpressionCompiler(source: source).compile(e)
    }

    /// A publisher argument: `( pipeline )`, a binding name or `{ pipeline }`, built in this scope.
    func publisher(_ i: Int) throws -> ValuePublisher {
        guard let a = argument(i) else { throw error("\(name): missing publisher") }
        switch a.value {
        case .pipeline(let p):
            return try context.build(p, source: source, env: env, depth: depth + 1)
        case .closure(let c):
            guard case .pipeline(let p) = c.body else { throw error("\(name) expects a publisher") }
            return try context.build(p, source: source, env: env, depth: depth + 1)
        case .word(let w):
            return try context.buildBinding(w, depth: depth + 1)
        default:
            throw error("\(name) expects a publisher")
        }
    }

    /// A pipeline closure, built per call with `$0` bound.
    func pipelineFactory(_ i: Int) throws -> @Sendable (Value) -> ValuePublisher {
        guard let a = argument(i), case .closure(let c) = a.value, case .pipeline(let p) = c.body else {
            throw error("\(name): missing pipeline closure")
        }
        let context = self.context
        let source = self.source
        let depth = self.depth
        let checked = try context.check(p, source: source)
        return { value in
            do {
                return try context.build(checked, source: source, env: ClosureArguments(value), depth: depth + 1)
            } catch {
                return Fail(error: error as any Error).valueStream()
            }
        }
    }
}

/// Per run: the runtime, the bindings as they were when the statement executed, and (with
/// `:trace on`) where trace events go.
final class BuildContext: Sendable {
    let runtime: Runtime
    let bindings: [String: Binding]
    let events: EventSerializer?

    init(runtime: Runtime, bindings: [String: Binding], events: EventSerializer?) {
        self.runtime = runtime
        self.bindings = bindings
        self.events = events
    }

    /// Checks (against this run's bindings) and builds a nested pipeline.
    func build(_ p: PipelineAST, source: SourceText, env: ClosureArguments, depth: Int) throws -> ValuePublisher {
        try build(check(p, source: source), source: source, env: env, depth: depth)
    }

    /// Resolves a nested pipeline's names and arguments once, so a closure built per value
    /// (`flatMap { … }`) does not check it again for each value.
    func check(_ p: PipelineAST, source: SourceText) throws -> CheckedPipeline {
        var checker = Checker(source: source, bindings: bindings.mapValues(\.info))
        guard let checked = checker.checkPipeline(p, dollars: [.any, .any], nested: true) else {
            let d = checker.diagnostics.first { $0.severity == .error }
            throw PipelineError(message: d?.message ?? "invalid pipeline", location: d?.location)
        }
        return checked
    }

    func buildBinding(_ name: String, depth: Int) throws -> ValuePublisher {
        guard let binding = bindings[name] else { throw PipelineError(message: "unknown binding '\(name)'") }
        if let hot = binding.hot {
            var rest = binding.pipeline
            rest.stages.removeFirst()
            return try build(rest, source: binding.source, env: .none, depth: depth, upstream: hot.publisher)
        }
        return try build(binding.pipeline, source: binding.source, env: .none, depth: depth)
    }

    func build(_ p: CheckedPipeline, source: SourceText, env: ClosureArguments, depth: Int, upstream start: ValuePublisher? = nil) throws -> ValuePublisher {
        var upstream = start ?? Empty<Value, any Error>().valueStream()
        for (index, stage) in p.stages.enumerated() {
            switch stage.target {
            case .binding(let name):
                upstream = try buildBinding(name, depth: depth)
            case .entry(let i):
                guard let build = Catalog.table[i].build else { throw PipelineError(message: "'\(stage.stage.name)' is not available") }
                upstream = try build(StageBuild(context: self, upstream: upstream, stage: stage, env: env, source: source, depth: depth))
            }
            if let events {
                upstream = Tracing.wrap(upstream, stage: index, name: stage.stage.name, depth: depth, events: events)
            }
        }
        return upstream
    }
}

/// Making the shared instances of eager bindings.
enum GraphBuilder {
    /// For `let s = subject`, `let c = currentValue 0`, `let f = future …`: the one instance.
    static func hotSource(for p: CheckedPipeline, source: SourceText, runtime: Runtime, bindings: [String: Binding]) throws -> HotSource? {
        guard let first = p.stages.first, let entry = first.entry else { return nil }
        let context = BuildContext(runtime: runtime, bindings: bindings, events: nil)
        let build = StageBuild(context: context, upstream: Empty<Value, any Error>().valueStream(), stage: first, env: .none, source: source, depth: 0)
        return try Hot.make(entry.name, build)
    }
}
