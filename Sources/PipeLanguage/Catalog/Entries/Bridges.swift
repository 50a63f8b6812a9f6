import Synchronization

/// The async/await bridge as an operator: `asyncMap` and its built-in steps.
extension CatalogTable {
    static let bridges: [CatalogEntry] = [
        CatalogEntry(
            "asyncMap", [[p("STEP", .step)]],
            summary: "runs an async step per value: delay D, delay D { expr }, flaky N, fail \"message\" or { expr }",
            combine: ".asyncMap { value in try await … } (an addition of this repository: not in Combine)", example: "just 1 | asyncMap delay 100",
            build: .operator { b in
                let step = try AsyncStep(b)
                let runtime = b.context.runtime
                return b.upstream.asyncMap(executorPreference: runtime.taskExecutor) { value in
                    try await step.run(value, runtime: runtime)
                }.valueStream()
            },
            infer: { input in
                let args = input.arguments.compactMap { $0 }
                guard let first = args.first else { return Shape(kind: .any, canFail: true) }
                switch first.value {
                case .word("delay"):
                    // The step sleeps, and a sleep throws when cancelled: asyncMap's throwing form, Failure == Error.
                    if let last = args.last, case .closure(let c) = last.value, case .expression(let e) = c.body {
                        return Shape(kind: ExpressionKinds.infer(e, [input.upstream.kind]).kind, canFail: true)
                    }
                    return Shape(kind: input.upstream.kind, canFail: true)
                case .word("flaky"), .word("fail"): return Shape(kind: input.upstream.kind, canFail: true)
                case .closure(let c):
                    if case .expression(let e) = c.body {
                        let r = ExpressionKinds.infer(e, [input.upstream.kind])
                        return Shape(kind: r.kind, canFail: input.upstream.canFail || r.canFail)
                    }
                    return Shape(kind: .any, canFail: true)
                default: return Shape(kind: .any, canFail: true)
                }
            },
            swift: { step in
                let b = step.positional
                switch b.word(0) {
                case "delay":
                    let result = b.closureBody(2, names: ["value"], kinds: [b.upstream.kind])
                    let sleep = "try await Task.sleep(for: \(b.duration(1)))"
                    return b.then(
                        ".asyncMap { value in\n    \(sleep)\n    return \(result?.text ?? "value")\n}", kind: result?.kind ?? b.upstream.kind, fails: true)
                case "flaky":
                    b.needs(.flaky)
                    let counter = b.declare("flaky") { "let \($0) = Flaky(failing: \(b.value(1)))" }
                    return b.then(".asyncMap { value in try \(counter)(value) }", fails: true)
                case "fail":
                    b.needs(.pipeError)
                    let message = b.isClosure(1) ? b.value(1) : Value.quote(b.string(1))
                    return b.then(".asyncMap { _ -> \(b.upstream.outputType) in throw PipeError(\(message)) }", fails: true)
                default:
                    let (closure, kind) = b.closure(0)
                    return b.then(".asyncMap \(closure)", kind: kind)
                }
            },
            async: AsyncForm(
                sequenceType: "AsyncThrowingMapSequence",
                swift: "AsyncSequence.map { value in try await … } (the standard library's map takes an async closure)",
                difference:
                    "on an async sequence the step runs inside the consumer's next(): a slow step is a slow consumer, and the base is asked for the next element only when the step is done; Combine's asyncMap asks upstream for at most min(demand, maxConcurrent) values, so behind a sink that asks for everything it keeps one in flight too",
                build: { b, base in
                    let step = try AsyncStep(b)
                    let runtime = b.context.runtime
                    return base.map { try await step.run($0, runtime: runtime) }.asyncValues()
                },
                // The same step as the publisher's `.asyncMap { … }`: the standard library's map
                // takes an async throwing closure.
                translate: { b in
                    guard let translate = Catalog.entry(named: "asyncMap")?.swift else { return b.unfaithful("asyncMap has no Swift form") }
                    var code = translate(b)
                    if let last = code.parts.last, last.hasPrefix(".asyncMap") { code.parts[code.parts.count - 1] = ".map" + last.dropFirst(".asyncMap".count) }
                    return code
                })),
        CatalogEntry(
            "stream",
            [[], [p("newest", .keyword("newest")), p("N", .count)], [p("oldest", .keyword("oldest")), p("N", .count)]],
            summary:
                "crosses to an async sequence through an AsyncThrowingStream fed by a sink (asks for everything, buffers without bound; newest N / oldest N keep N)",
            combine: "AsyncThrowingStream { continuation in publisher.sink(…) } (reference article 002's bridge)",
            example: "from 1...3 | stream | map { $0 * 2 }",
            build: .operator { b in b.upstream }, infer: Infer.same,
            swift: { b in b.upstream }, crossing: .stream),
        CatalogEntry(
            "publisher", [[]],
            summary: "crosses back from an async sequence to a publisher, iterated in a task while there is demand",
            combine: "asyncSequence.publisher (an addition of this repository: not in Combine)",
            example: "from [1, 2] | values | map { $0 + 1 } | publisher | scan 0 { $0 + $1 }",
            build: .operator { b in b.upstream }, infer: Infer.same,
            swift: { b in b.upstream }, crossing: .publisher),
    ]
}

/// Article 002's bridge: a `sink` that asks for everything yields into an `AsyncThrowingStream`;
/// the stream buffers what the consumer has not pulled yet (all of it by default, or the newest or
/// oldest N), where `values` asks upstream for one value per `next()`.
enum AsyncStreamBridge {
    static func sequence(_ upstream: ValuePublisher, _ b: StageBuild) throws -> AsyncValues {
        typealias Stream = AsyncThrowingStream<Value, any Error>
        let policy: Stream.Continuation.BufferingPolicy
        switch b.stage.overload {
        case 1: policy = .bufferingNewest(try b.int(1))
        case 2: policy = .bufferingOldest(try b.int(1))
        default: policy = .unbounded
        }
        return StreamBridge(upstream: upstream, policy: policy).asyncValues()
    }

    /// One stream and one subscription per iteration, made when the iteration starts.
    struct StreamBridge: AsyncSequence, Sendable {
        typealias Element = Value
        typealias Failure = any Error
        let upstream: ValuePublisher
        let policy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy

        func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.Iterator {
            let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: policy)
            let subscription = upstream.sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: continuation.finish()
                    case .failure(let error): continuation.finish(throwing: error)
                    }
                },
                receiveValue: { continuation.yield($0) })
            // The consumer's end (cancelled, or it stopped iterating) cancels the subscription.
            let box = CancelBox(subscription)
            continuation.onTermination = { _ in box.cancel() }
            return stream.makeAsyncIterator()
        }
    }

    /// Holds the sink's cancellable for the stream's termination handler.
    final class CancelBox: Sendable {
        private let cancellable: Lock<AnyCancellable?>
        init(_ cancellable: AnyCancellable) { self.cancellable = Lock(cancellable) }
        func cancel() {
            let c = cancellable.withLock { c -> AnyCancellable? in
                defer { c = nil }
                return c
            }
            c?.cancel()
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
        guard let first = b.stage.stage.arguments.first else { throw b.error(.missingStep) }
        let args = b.stage.stage.arguments
        // The step's arguments are positional after the step word; evaluate them in scope.
        let inner = StageBuild(
            context: b.context, upstream: b.upstream,
            stage: CheckedStage(stage: b.stage.stage, target: b.stage.target, overload: 0, arguments: args, nested: [:], shape: b.stage.shape),
            env: b.env, source: b.source, depth: b.depth)
        switch first.value {
        case .word("delay"): kind = .delay(try inner.duration(1), args.count > 2 ? try inner.closure(2) : nil)
        case .word("flaky"): kind = .flaky(try inner.int(1), b.context.run.flakyCounter(b.source, at: b.stage.stage.nameSpan.offset))
        case .word("fail"): kind = .fail(try inner.value(1).plainText)
        case .closure: kind = .closure(try inner.closure(0))
        default: throw b.error(.invalidStep(b.source.text(first.span)))
        }
    }

    func run(_ value: Value, runtime: Runtime) async throws -> Value {
        switch kind {
        case .delay(let ns, let f):
            try await runtime.sleep(nanoseconds: ns)
            return try f?(ClosureArguments(value)) ?? value
        case .flaky(let n, let counter):
            // Fails its first n calls of this run: the counter belongs to the run, so it is shared
            // by `retry`'s resubscriptions and by every graph `deferred` or `flatMap` builds, and
            // fresh for the next statement.
            let call = counter.next()
            if call <= n { throw PipelineError(.flakyFailure(call, of: n), location: location) }
            return value
        case .fail(let message):
            // The user's own message: no id.
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
