import Foundation
import Synchronization

/// The builders: each calls the `Reactive` operator of the same name over `Value`. An entry whose
/// builder is nil is left out of the catalog (its core operator has not landed).
enum Build {
    // MARK: sources

    static let just: Builder? = { b in
        Just(try b.value(0)).setFailureType(to: (any Error).self).valueStream()
    }
    static let from: Builder? = { b in
        guard let a = b.argument(0), case .expr(let e) = a.value else { throw b.error("from expects an array or a range") }
        if case .range(let lo, let hi) = e.kind {
            let compiler = ExpressionCompiler(source: b.source)
            guard case .int(let x) = try compiler.compile(lo)(b.env), case .int(let y) = try compiler.compile(hi)(b.env) else {
                throw b.error("from expects a range of integers")
            }
            guard x <= y else { throw b.error("range \(x)...\(y) has its lower bound above its upper bound") }
            // A range streams lazily: `from 1...1000000` never builds an array.
            return Publishers.Sequence<LazyMapSequence<ClosedRange<Int>, Value>, any Error>(sequence: (x...y).lazy.map(Value.int)).valueStream()
        }
        guard case .array(let items) = try b.value(0) else { throw b.error("from expects an array or a range") }
        return Publishers.Sequence<[Value], any Error>(sequence: items).valueStream()
    }
    static let empty: Builder? = { _ in Empty<Value, any Error>().valueStream() }
    static let never: Builder? = { _ in Empty<Value, any Error>(completeImmediately: false).valueStream() }
    static let fail: Builder? = { b in
        let message = try b.value(0).plainText
        return Fail<Value, any Error>(error: b.error(message)).valueStream()
    }
    static let interval: Builder? = { b in
        let ns = try b.duration(0)
        guard ns > 0 else { throw b.error("interval needs a period above zero") }
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            Publishers.interval(.nanoseconds(Int(ns)), scheduler: s).map(Value.int).setFailureType(to: (any Error).self).valueStream()
        }
        return b.onScheduler(make, make)
    }
    /// One value (0) after the delay: the first tick of an interval.
    static let timer: Builder? = { b in
        let ns = Swift.max(1, try b.duration(0))
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            Publishers.interval(.nanoseconds(Int(ns)), scheduler: s).prefix(1).map(Value.int).setFailureType(to: (any Error).self).valueStream()
        }
        return b.onScheduler(make, make)
    }
    static let future: Builder? = { b in try Hot.future(b).publisher }
    static let deferred: Builder? = { b in
        let factory = try b.pipelineFactory(0)
        return Deferred { factory(.null) }.valueStream()
    }
    static let subject: Builder? = { b in try Hot.subject(b).publisher }
    static let currentValue: Builder? = { b in try Hot.currentValue(b).publisher }

    // MARK: operators

    static let map: Builder? = { b in
        let f = try b.closure(0)
        return b.upstream.tryMap { try f(ClosureArguments($0)) }.valueStream()
    }
    static let filter: Builder? = { b in
        let f = try b.predicate(0)
        return b.upstream.tryFilter(f).valueStream()
    }
    static let compactMap: Builder? = { b in
        let f = try b.closure(0)
        return b.upstream.tryCompactMap { v -> Value? in
            let r = try f(ClosureArguments(v))
            return r == .null ? nil : r
        }.valueStream()
    }
    static let scan: Builder? = { b in
        let initial = try b.value(0)
        let f = try b.closure(1)
        return b.upstream.tryScan(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
    }
    static let reduce: Builder? = { b in
        let initial = try b.value(0)
        let f = try b.closure(1)
        return b.upstream.tryReduce(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
    }
    static let count: Builder? = { b in b.upstream.count().map(Value.int).valueStream() }
    static let collect: Builder? = { b in
        if b.stage.overload == 1 {
            let ns = try b.duration(0)
            guard ns > 0 else { throw b.error("collect byTime: needs a window above zero") }
            func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                b.upstream.collect(.byTime(s, .nanoseconds(Int(ns)))).map(Value.array).valueStream()
            }
            return b.onScheduler(make, make)
        }
        if b.argument(0) != nil {
            return b.upstream.collect(try b.int(0, minimum: 1)).map(Value.array).valueStream()
        }
        return b.upstream.collect().map(Value.array).valueStream()
    }
    static let first: Builder? = { b in
        if b.argument(0) != nil { return b.upstream.tryFirst(where: try b.predicate(0)).valueStream() }
        return b.upstream.first().valueStream()
    }
    static let last: Builder? = { b in
        if b.argument(0) != nil { return b.upstream.tryLast(where: try b.predicate(0)).valueStream() }
        return b.upstream.last().valueStream()
    }
    static let prefix: Builder? = { b in
        switch b.stage.overload {
        case 0: return b.upstream.prefix(try b.int(0)).valueStream()
        case 1: return b.upstream.tryPrefix(while: try b.predicate(0)).valueStream()
        default: return b.upstream.prefix(untilOutputFrom: try b.publisher(0)).valueStream()
        }
    }
    static let dropFirst: Builder? = { b in
        b.upstream.dropFirst(b.argument(0) == nil ? 1 : try b.int(0)).valueStream()
    }
    static let drop: Builder? = { b in
        if b.stage.overload == 1 { return b.upstream.drop(untilOutputFrom: try b.publisher(0)).valueStream() }
        return b.upstream.tryDrop(while: try b.predicate(0)).valueStream()
    }
    static let removeDuplicates: Builder? = { b in b.upstream.removeDuplicates().valueStream() }
    static let ignoreOutput: Builder? = { b in
        b.upstream.ignoreOutput().map { (never: Never) -> Value in }.valueStream()
    }
    static let replaceEmpty: Builder? = { b in b.upstream.replaceEmpty(with: try b.value(0)).valueStream() }
    /// `Value` is not an Optional, so Combine's `replaceNil` (which maps `T?`) is spelt with `map`.
    static let replaceNil: Builder? = { b in
        let v = try b.value(0)
        return b.upstream.map { $0 == .null ? v : $0 }.valueStream()
    }
    static let replaceError: Builder? = { b in
        b.upstream.replaceError(with: try b.value(0)).setFailureType(to: (any Error).self).valueStream()
    }
    static let min: Builder? = { b in
        let compiler = ExpressionCompiler(source: b.source)
        let span = b.stage.stage.nameSpan
        return b.upstream.tryMin { try ExpressionCompiler.less($0, $1, compiler, span) }.valueStream()
    }
    static let max: Builder? = { b in
        let compiler = ExpressionCompiler(source: b.source)
        let span = b.stage.stage.nameSpan
        return b.upstream.tryMax { try ExpressionCompiler.less($0, $1, compiler, span) }.valueStream()
    }
    static let contains: Builder? = { b in b.upstream.contains(try b.value(0)).map(Value.bool).valueStream() }
    static let allSatisfy: Builder? = { b in
        b.upstream.tryAllSatisfy(try b.predicate(0)).map(Value.bool).valueStream()
    }
    static let output: Builder? = { b in b.upstream.output(at: try b.int(0)).valueStream() }
    static let handleEvents: Builder? = { b in b.upstream.handleEvents().valueStream() }
    static let share: Builder? = { b in b.upstream.share().valueStream() }
    static let flatMap: Builder? = { b in
        let max: Subscribers.Demand = b.argument(0) == nil ? .unlimited : .max(try b.int(0, minimum: 1))
        let factory = try b.pipelineFactory(1)
        return b.upstream.flatMap(maxPublishers: max) { factory($0) }.valueStream()
    }
    static let merge: Builder? = { b in b.upstream.merge(with: try b.publisher(0)).valueStream() }
    static let zip: Builder? = { b in
        b.upstream.zip(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream()
    }
    static let combineLatest: Builder? = { b in
        b.upstream.combineLatest(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream()
    }
    static let switchToLatest: Builder? = { b in
        let factory = try b.pipelineFactory(0)
        return b.upstream.map { factory($0) }.switchToLatest().valueStream()
    }
    static let append: Builder? = { b in
        if b.stage.overload == 0 { return b.upstream.append(try b.value(0)).valueStream() }
        return b.upstream.append(try b.publisher(0)).valueStream()
    }
    static let prepend: Builder? = { b in
        if b.stage.overload == 0 { return b.upstream.prepend(try b.value(0)).valueStream() }
        return b.upstream.prepend(try b.publisher(0)).valueStream()
    }
    /// `$0` inside the replacement pipeline is the error's message.
    static let catchError: Builder? = { b in
        let factory = try b.pipelineFactory(0)
        return b.upstream.catch { factory(.string(PipelineError.from($0).message)) }.valueStream()
    }
    static let retry: Builder? = { b in b.upstream.retry(try b.int(0)).valueStream() }
    static let delay: Builder? = { b in
        let ns = try b.duration(0)
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            b.upstream.delay(for: .nanoseconds(Int(ns)), scheduler: s).valueStream()
        }
        return b.onScheduler(make, make)
    }
    static let debounce: Builder? = { b in
        let ns = try b.duration(0)
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            b.upstream.debounce(for: .nanoseconds(Int(ns)), scheduler: s).valueStream()
        }
        return b.onScheduler(make, make)
    }
    static let throttle: Builder? = { b in
        let ns = try b.duration(0)
        var latest = false
        if b.argument(1) != nil {
            guard case .bool(let l) = try b.value(1) else { throw b.error("throttle expects latest: true or false") }
            latest = l
        }
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            b.upstream.throttle(for: .nanoseconds(Int(ns)), scheduler: s, latest: latest).valueStream()
        }
        return b.onScheduler(make, make)
    }
    static let timeout: Builder? = { b in
        let ns = try b.duration(0)
        let error = b.error("timed out after \(Printer.duration(ns))")
        func make<S: Scheduler>(_ s: S) -> ValuePublisher {
            b.upstream.timeout(.nanoseconds(Int(ns)), scheduler: s, customError: { error }).valueStream()
        }
        return b.onScheduler(make, make)
    }
    /// Emits milliseconds (a Double) since the previous value (or the subscription).
    static let measureInterval: Builder? = { b in
        b.onScheduler(
            { (s: VirtualTimeScheduler) in
                b.upstream.measureInterval(using: s).map { Value.double(Double($0.nanoseconds) / 1e6) }.valueStream()
            },
            { (q: DispatchQueue) in
                b.upstream.measureInterval(using: q).map { Value.double(Double($0.magnitude) / 1e6) }.valueStream()
            })
    }
    static let buffer: Builder? = { b in
        b.upstream.buffer(size: try b.int(0, minimum: 1), prefetch: .byRequest, whenFull: .dropNewest).valueStream()
    }
    static let receiveOn: Builder? = { b in
        func make<S: Scheduler>(_ s: S) -> ValuePublisher { b.upstream.receive(on: s).valueStream() }
        return b.onScheduler(make, make)
    }
    static let subscribeOn: Builder? = { b in
        func make<S: Scheduler>(_ s: S) -> ValuePublisher { b.upstream.subscribe(on: s).valueStream() }
        return b.onScheduler(make, make)
    }
    static let asyncMap: Builder? = { b in
        let step = try AsyncStep(b)
        let runtime = b.context.runtime
        return b.upstream.asyncMap(executorPreference: runtime.taskExecutor) { value in
            try await step.run(value, runtime: runtime)
        }.valueStream()
    }
}

extension StageBuild {
    /// Calls `virtual` with the runtime's VirtualTimeScheduler, or `real` with its dispatch queue.
    func onScheduler(
        _ virtual: (VirtualTimeScheduler) -> ValuePublisher, _ real: (DispatchQueue) -> ValuePublisher
    ) -> ValuePublisher {
        if let parts = context.runtime.virtual { return virtual(parts.scheduler) }
        return real(context.runtime.queue)
    }

    /// A closure used as a condition: it must produce a Bool.
    func predicate(_ i: Int) throws -> @Sendable (Value) throws -> Bool {
        let f = try closure(i)
        let location = location
        let name = name
        return { v in
            guard case .bool(let b) = try f(ClosureArguments(v)) else {
                throw PipelineError(message: "\(name)'s closure must return a Bool", location: location)
            }
            return b
        }
    }
}

/// asyncMap's built-in steps. `delay` and `flaky` sleep on the runtime's clock (virtual or real).
struct AsyncStep: Sendable {
    enum Kind: Sendable {
        case delay(Int64, CompiledExpression?)
        case flaky(Int, FlakyCounter)
        case fail(String)
        case closure(CompiledExpression)
    }
    let kind: Kind
    let location: SourceLocation

    init(_ b: StageBuild) throws {
        location = b.location
        guard let first = b.stage.stage.arguments.first else { throw b.error("asyncMap needs a step") }
        let args = b.stage.stage.arguments
        // The step's arguments are positional after the step word; evaluate them in scope.
        let inner = StageBuild(
            context: b.context, upstream: b.upstream,
            stage: CheckedStage(stage: b.stage.stage, target: b.stage.target, overload: 0, arguments: args, shape: b.stage.shape),
            env: b.env, source: b.source, depth: b.depth)
        switch first.value {
        case .word("delay"): kind = .delay(try inner.duration(1), args.count > 2 ? try inner.closure(2) : nil)
        case .word("flaky"): kind = .flaky(try inner.int(1), FlakyCounter())
        case .word("fail"): kind = .fail(try inner.value(1).plainText)
        case .closure: kind = .closure(try inner.closure(0))
        default: throw b.error("unknown asyncMap step")
        }
    }

    func run(_ value: Value, runtime: Runtime) async throws -> Value {
        switch kind {
        case .delay(let ns, let f):
            try await runtime.sleep(nanoseconds: ns)
            return try f?(ClosureArguments(value)) ?? value
        case .flaky(let n, let counter):
            // Fails its first n calls of this run (the counter lives as long as the built graph,
            // so it is shared by `retry`'s resubscriptions and fresh for the next statement).
            let call = counter.next()
            if call <= n { throw PipelineError(message: "flaky failure \(call) of \(n)", location: location) }
            return value
        case .fail(let message):
            throw PipelineError(message: message, location: location)
        case .closure(let f):
            return try f(ClosureArguments(value))
        }
    }
}

/// Counts `flaky` calls across resubscriptions of one run.
final class FlakyCounter: Sendable {
    private let count = Atomic<Int>(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// Eager sources: made once per binding (or per run when used directly).
enum Hot {
    static func make(_ name: String, _ b: StageBuild) throws -> HotSource? {
        switch name {
        case "subject": return try subject(b)
        case "currentValue": return try currentValue(b)
        case "future": return try future(b)
        default: return nil
        }
    }

    static func subject(_ b: StageBuild) throws -> HotSource {
        let s = PassthroughSubject<Value, any Error>()
        return HotSource(
            publisher: s.valueStream(), send: { s.send($0) },
            complete: { e in s.send(completion: e.map { .failure($0) } ?? .finished) })
    }

    static func currentValue(_ b: StageBuild) throws -> HotSource {
        let s = CurrentValueSubject<Value, any Error>(try b.value(0))
        return HotSource(
            publisher: s.valueStream(), send: { s.send($0) },
            complete: { e in s.send(completion: e.map { .failure($0) } ?? .finished) })
    }

    /// `future delay D value V`: starts now, fulfils after D on the runtime's scheduler.
    static func future(_ b: StageBuild) throws -> HotSource {
        let ns = try b.duration(1)
        let value = try b.value(3)
        let runtime = b.context.runtime
        let f = Future<Value, any Error> { promise in
            runtime.schedule(afterNanoseconds: ns) { promise(.success(value)) }
        }
        return HotSource(publisher: f.valueStream(), send: nil, complete: nil)
    }
}

/// `:trace on`: a `handleEvents` stage after every stage reports its lifecycle.
enum Tracing {
    static func wrap(_ upstream: ValuePublisher, stage: Int, name: String, depth: Int, events: EventSerializer) -> ValuePublisher {
        @Sendable func emit(_ event: String) {
            events.send(.trace(stage: stage, name: name, depth: depth, event: event, thread: currentThreadName()))
        }
        return upstream.handleEvents(
            receiveSubscription: { _ in emit("subscribe") },
            receiveOutput: { emit("value \($0)") },
            receiveCompletion: { c in
                switch c {
                case .finished: emit("finished")
                case .failure(let e): emit("failed: \(PipelineError.from(e).message)")
                }
            },
            receiveCancel: { emit("cancel") },
            receiveRequest: { emit("request(\(describe($0)))") }
        ).valueStream()
    }

    static func describe(_ d: Subscribers.Demand) -> String {
        d == .unlimited ? "unlimited" : "\(d.max ?? 0)"
    }

    static func currentThreadName() -> String {
        if Thread.isMainThread { return "main" }
        return Thread.current.name.flatMap { $0.isEmpty ? nil : $0 } ?? "thread"
    }
}

/// The `values` and `async` terminals, through the core's async bridges.
enum Terminals {
    static func startAsync(_ publisher: ValuePublisher, terminal: String, runtime: Runtime, events: EventSerializer) -> AnyCancellable {
        events.send(.subscribed)
        let task = Task(executorPreference: runtime.taskExecutor) {
            do {
                if terminal == "values" {
                    for try await value in publisher.values { events.send(.next(value)) }
                } else {
                    events.send(.value(try await publisher.async()))
                }
                events.send(.finished, terminal: true)
            } catch is CancellationError {
                events.send(.cancelled, terminal: true)
            } catch {
                events.send(.failed(PipelineError.from(error)), terminal: true)
            }
        }
        return AnyCancellable {
            task.cancel()
            events.send(.cancelled, terminal: true)
        }
    }
}
