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

/// What a builder gets: the upstream publisher, the checked stage (its nested pipelines checked
/// with it), the closure arguments in scope (inside a pipeline closure, `$0`), and the run's context.
struct StageBuild {
    let context: BuildContext
    let upstream: ValuePublisher
    let stage: CheckedStage
    let env: ClosureArguments
    let source: SourceText
    let depth: Int
    /// The stage's index in its pipeline (0 = source), as `:trace` and `.output` events name it.
    var index: Int = 0
    /// The stage's marble-diagram lane, when recording: inner pipelines hang under it.
    var lane: Int? = nil

    /// Where a nested pipeline of this stage draws: under this stage's lane, or not at all.
    var innerLanes: LaneScope { lane.map { .inner(parent: $0) } ?? .none }

    var arguments: [Argument?] { stage.arguments }
    func argument(_ i: Int) -> Argument? { i < stage.arguments.count ? stage.arguments[i] : nil }
    var name: String { stage.stage.name }
    var location: SourceLocation { source.location(of: stage.stage.nameSpan.offset) }

    func error(_ message: Message) -> PipelineError { PipelineError(message, location: location) }

    /// Evaluates an expression argument in the current scope.
    func value(_ i: Int) throws -> Value {
        guard let a = argument(i), case .expr(let e) = a.value else { throw error(.missingBuildArgument(name, "value")) }
        return try ExpressionCompiler(source: source).compile(e)(env)
    }

    func int(_ i: Int, minimum: Int = 0) throws -> Int {
        let v = try value(i)
        guard case .int(let n) = v, n >= minimum else {
            throw error(.wrongBuildArgument(name, minimum == 0 ? "a non-negative integer" : "a positive integer", got: v.description))
        }
        return n
    }

    func duration(_ i: Int) throws -> Int64 {
        guard let a = argument(i) else { throw error(.missingBuildArgument(name, "duration")) }
        if case .duration(let ns) = a.value { return ns }
        guard case .expr(let e) = a.value else { throw error(.wrongBuildArgument(name, "a duration")) }
        let v = try ExpressionCompiler(source: source).compile(e)(env)
        switch Durations.nanoseconds(fromMilliseconds: v) {
        case .success(let ns): return ns
        case .failure(let p): throw error(.wrongBuildArgument(name, p.text, got: v.description))
        }
    }

    func closure(_ i: Int) throws -> CompiledExpression {
        guard let e = closureExpression(i) else { throw error(.missingBuildArgument(name, "closure")) }
        return ExpressionCompiler(source: source).compile(e)
    }

    /// The expression of the closure argument `i` (`{ $0 * 2 }`), if it is one.
    private func closureExpression(_ i: Int) -> Expr? {
        guard let a = argument(i), case .closure(let c) = a.value, case .expression(let e) = c.body else { return nil }
        return e
    }

    /// The closure as one that cannot fail, when `Infallibility` proves it cannot for the kind
    /// of the values arriving (`$0 % 2 == 0` over Ints); nil when it might.
    ///
    /// Such a closure lets the stage use Reactive's non-throwing operator. Should the proof ever
    /// be wrong (a value of a kind the checker did not see), the run fails with the closure's
    /// error and position (`RunState.abort`), as the throwing operator would have; it never traps.
    func infallibleClosure(_ i: Int, arity: Int = 1) -> (@Sendable (ClosureArguments) -> Value)? {
        guard let e = closureExpression(i), Infallibility.cannotFail(e, dollars: closureDollars(arity: arity)) else { return nil }
        let f = ExpressionCompiler(source: source).compile(e)
        let run = context.run
        return { args in
            do { return try f(args) } catch {
                run.abort(PipelineError.from(error))
                return .null
            }
        }
    }

    /// A condition that cannot fail and certainly yields a Bool (see `infallibleClosure`).
    func infalliblePredicate(_ i: Int) -> (@Sendable (Value) -> Bool)? {
        guard let e = closureExpression(i), Infallibility.isCertainCondition(e, dollars: closureDollars(arity: 1)) else { return nil }
        let f = ExpressionCompiler(source: source).compile(e)
        let run = context.run
        let notBool = error(.predicateNotBool(name))
        return { v in
            do {
                if case .bool(let b) = try f(ClosureArguments(v)) { return b }
                run.abort(notBool)
            } catch {
                run.abort(PipelineError.from(error))
            }
            return false
        }
    }

    /// What `$0` (and `$1`) are inside this stage's closures, as the checker saw them: a
    /// two-argument closure's `$0` is the accumulator (not known), `$1` the value.
    private func closureDollars(arity: Int) -> [ValueKind] {
        arity == 1 ? [stage.input.kind] : [.any, stage.input.kind]
    }

    /// A closure used as a condition: it must produce a Bool.
    func predicate(_ i: Int) throws -> @Sendable (Value) throws -> Bool {
        let f = try closure(i)
        let failure = error(.predicateNotBool(name))
        return { v in
            guard case .bool(let b) = try f(ClosureArguments(v)) else { throw failure }
            return b
        }
    }

    /// A two-argument closure used as a condition (`removeDuplicates by:`, `min by:`).
    func predicate2(_ i: Int) throws -> @Sendable (Value, Value) throws -> Bool {
        let f = try closure(i)
        let failure = error(.predicateNotBool(name))
        return { a, b in
            guard case .bool(let result) = try f(ClosureArguments(a, b)) else { throw failure }
            return result
        }
    }

    /// A publisher argument, built in this scope from the pipeline the checker checked (or the
    /// binding it named).
    func publisher(_ i: Int) throws -> ValuePublisher {
        switch stage.nested[i] {
        case .pipeline(let p)?: return try context.build(p, source: source, env: env, depth: depth + 1, lanes: innerLanes)
        case .binding(let w, _)?: return try context.buildBinding(w, depth: depth + 1)
        case .choice?, nil: throw error(.missingBuildArgument(name, "publisher"))
        }
    }

    /// A pipeline closure, built per call with `$0` bound, from the checked pipeline.
    func pipelineFactory(_ i: Int) throws -> @Sendable (Value) -> ValuePublisher {
        let context = self.context
        let source = self.source
        let depth = self.depth
        let lanes = innerLanes
        let choose: @Sendable (ClosureArguments) throws -> CheckedPipeline
        switch stage.nested[i] {
        case .pipeline(let checked)?: choose = { _ in checked }
        case .choice(let choice)?: choose = Self.chooser(choice, ExpressionCompiler(source: source))
        default: throw error(.missingBuildArgument(name, "pipeline closure"))
        }
        return { value in
            do {
                var env = ClosureArguments(value)
                env.atRunTime = true
                return try context.build(try choose(env), source: source, env: env, depth: depth + 1, lanes: lanes)
            } catch {
                return Fail(error: error as any Error).valueStream()
            }
        }
    }

    /// Picks a choice's pipeline for `$0`: conditions compiled once, evaluated per value.
    private static func chooser(_ choice: CheckedChoice, _ compiler: ExpressionCompiler) -> @Sendable (ClosureArguments) throws -> CheckedPipeline {
        switch choice {
        case .pipeline(let p): return { _ in p }
        case .choice(let condition, _, let yes, let no):
            let test = compiler.compile(condition)
            let (a, b) = (chooser(yes, compiler), chooser(no, compiler))
            let failure = PipelineError(.conditionNotBool, location: compiler.source.location(of: condition.span.offset))
            return { env in
                guard case .bool(let flag) = try test(env) else { throw failure }
                return try flag ? a(env) : b(env)
            }
        }
    }

    /// Calls `virtual` with the runtime's VirtualTimeScheduler, as this stage's (its actions say
    /// whose they are, for a paused run), or `real` with the runtime's dispatch queue.
    func onScheduler(
        _ virtual: (StageScheduler) -> ValuePublisher, _ real: (DispatchQueue) -> ValuePublisher
    ) -> ValuePublisher {
        if let parts = context.runtime.virtual {
            let text = source.text(stage.stage.span)
            return virtual(StageScheduler(base: parts.scheduler, stage: depth == 0 ? "[\(index)] \(text)" : text, runtime: context.runtime))
        }
        return real(context.runtime.queue)
    }
}
