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
                    return b.then(".asyncMap { value in\n    \(sleep)\n    return \(result?.text ?? "value")\n}", kind: result?.kind ?? b.upstream.kind, fails: true)
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
            }),
    ]
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

