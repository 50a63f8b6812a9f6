import ReactiveAsync
/// Operators that transform values: map, accumulate, gather.
extension CatalogTable {
    static let transforming: [CatalogEntry] = [
        CatalogEntry(
            "map", [[p("$0 * 2", .closure(arity: 1))]],
            summary: "transforms each value", combine: ".map(_:) (.tryMap when the closure can fail)",
            example: "from [1, 2, 3] | map { $0 * 10 }",
            build: .operator { b in
                if let f = b.infallibleClosure(0) { return b.upstream.map { f(ClosureArguments($0)) }.valueStream() }
                let f = try b.closure(0)
                return b.upstream.tryMap { try f(ClosureArguments($0)) }.valueStream()
            },
            infer: Infer.closureResult,
            swift: { b in
                let (closure, kind) = b.closure(0)
                return b.then(".map \(closure)", kind: kind)
            },
            async: AsyncForm(
                sequenceType: "AsyncThrowingMapSequence",
                swift:
                    "AsyncSequence.map(_:) (the standard library's AsyncThrowingMapSequence: always the throwing form, as a closure here can fail at run time)",
                difference: "runs the closure in the consuming task's next(), one element per pull",
                build: { b, base in
                    let f = try b.closure(0)
                    return base.map { try f(ClosureArguments($0)) }.asyncValues()
                })),
        CatalogEntry(
            "compactMap", [[p("$0 > 0 ? $0 : nil", .closure(arity: 1))]],
            summary: "transforms each value and drops nil results", combine: ".compactMap(_:)",
            example: "from [1, -1, 2] | compactMap { $0 > 0 ? $0 : nil }",
            build: .operator { b in
                if let f = b.infallibleClosure(0) {
                    return b.upstream.compactMap { v -> Value? in
                        let r = f(ClosureArguments(v))
                        return r == .null ? nil : r
                    }.valueStream()
                }
                let f = try b.closure(0)
                return b.upstream.tryCompactMap { v -> Value? in
                    let r = try f(ClosureArguments(v))
                    return r == .null ? nil : r
                }.valueStream()
            },
            infer: Infer.closureResult,
            swift: { b in
                // The closure returns an Optional in Swift: its nil branch is dropped, not a value kind.
                let (closure, kind) = b.closure(0, allowsNil: true)
                return b.then(".compactMap \(closure)", kind: kind)
            },
            async: AsyncForm(
                sequenceType: "AsyncThrowingCompactMapSequence",
                swift:
                    "AsyncSequence.compactMap(_:) (the standard library's AsyncThrowingCompactMapSequence: always the throwing form, as a closure here can fail at run time)",
                difference: "pulls again from its base for each nil, inside one next(), where Combine asks for one more",
                build: { b, base in
                    let f = try b.closure(0)
                    return base.compactMap { v -> Value? in
                        let r = try f(ClosureArguments(v))
                        return r == .null ? nil : r
                    }.asyncValues()
                })),
        CatalogEntry(
            "scan", [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
            summary: "emits each running accumulation ($0 is the accumulator, $1 the value)", combine: ".scan(_:_:)",
            example: "from 1...4 | scan 0 { $0 + $1 }",
            build: .operator { b in
                let initial = try b.value(0)
                let f = try b.closure(1)
                return b.upstream.tryScan(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
            },
            infer: Infer.accumulator,
            swift: { b in
                let (initial, start) = b.expression(0)
                let (closure, kind) = b.closure(1, arity: 2, kinds: [start, b.upstream.kind])
                return b.then(".scan(\(initial)) \(closure)", kind: start.merged(kind))
            }),
        CatalogEntry(
            "reduce", [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
            summary: "emits the final accumulation when upstream finishes", combine: ".reduce(_:_:)",
            example: "from 1...4 | reduce 0 { $0 + $1 }",
            build: .operator { b in
                let initial = try b.value(0)
                let f = try b.closure(1)
                return b.upstream.tryReduce(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
            },
            infer: Infer.accumulator,
            swift: { b in
                let (initial, start) = b.expression(0)
                let (closure, kind) = b.closure(1, arity: 2, kinds: [start, b.upstream.kind])
                return b.then(".reduce(\(initial)) \(closure)", kind: start.merged(kind))
            }),
        CatalogEntry(
            "count", [[]],
            summary: "emits how many values upstream produced, when it finishes", combine: ".count()",
            example: "from 1...5 | count",
            build: .operator { b in b.upstream.count().map(Value.int).valueStream() },
            infer: Infer.fixedKeepFailure(.int),
            swift: { b in b.then(".count()", kind: .int) }),
        CatalogEntry(
            "collect", [[p("COUNT", .positive, optional: true)], [p("D", .period, label: "byTime", labelRequired: true)]],
            summary: "gathers values into arrays (all of them, every COUNT, or per time window)",
            combine: ".collect() / .collect(_:) / .collect(.byTime(_:_:))", example: "from 1...5 | collect 2",
            build: .operator { b in
                if b.stage.overload == 1 {
                    let ns = try b.duration(0)
                    guard ns > 0 else { throw b.error(.windowNotPositive) }
                    func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                        b.upstream.collect(.byTime(s, .nanoseconds(Int(ns)))).map(Value.array).valueStream()
                    }
                    return b.onScheduler(make, make)
                }
                if b.argument(0) != nil {
                    return b.upstream.collect(try b.int(0, minimum: 1)).map(Value.array).valueStream()
                }
                // All of upstream in one array: past the array cap the pipeline fails at the stage.
                let location = b.location
                return b.upstream.collect().tryMap { all -> Value in
                    guard all.count <= Limits.maxArrayCount else { throw PipelineError(.arrayTooLarge(all.count), location: location) }
                    return .array(all)
                }.valueStream()
            },
            infer: Infer.arrayOfUpstream,
            swift: { b in
                if b.overload == 1 {
                    b.needs(.queue)
                    return b.then(".collect(.byTime(queue, \(b.duration(0))))", kind: .array(b.upstream.kind))
                }
                return b.then(b.has(0) ? ".collect(\(b.value(0)))" : ".collect()", kind: .array(b.upstream.kind))
            }),
        CatalogEntry(
            "replaceNil", [[p("VALUE", .value)]],
            summary: "replaces nil values with VALUE", combine: ".replaceNil(with:)",
            example: "from [1, nil, 3] | replaceNil 0",
            build: .operator { b in
                // `Value` is not an Optional, so Combine's `replaceNil` (which maps `T?`) is spelt with `map`.
                let v = try b.value(0)
                return b.upstream.map { $0 == .null ? v : $0 }.valueStream()
            },
            // nil values become VALUE: over nils only, VALUE's kind; else both kinds.
            infer: { input in
                let value = input.constantKind(0)
                return Shape(kind: input.upstream.kind == .null ? value : input.upstream.kind.merged(value), canFail: input.upstream.canFail)
            },
            swift: { b in b.then(".replaceNil(with: \(b.value(0)))") }),
        CatalogEntry(
            "handleEvents",
            [
                ["receiveSubscription", "receiveOutput", "receiveCompletion", "receiveCancel", "receiveRequest"].map {
                    p("MESSAGE", .message, label: $0, optional: true, labelRequired: true)
                }
            ],
            summary: "passes everything through; each hook given prints its message (or its closure's result) when it runs",
            combine: ".handleEvents(receiveSubscription:receiveCancel:) (and receiveOutput:, receiveCompletion:, receiveRequest:)",
            example: "interval 100ms | handleEvents receiveSubscription: \"start query\" receiveCancel: \"stop query\" | take 2",
            build: .operator { b in
                // $0 in a hook's closure: the value, the completion ("finished" or the error's
                // message), or the demand ("unlimited" or a number); nil for subscription and cancel.
                let hook = { (i: Int) throws -> (@Sendable (Value) -> Void)? in
                    guard let a = b.argument(i) else { return nil }
                    let context = b.context
                    let stage = b.index
                    if case .closure = a.value {
                        let f = try b.closure(i)
                        return { v in context.output(.hook, stage: stage, ((try? f(ClosureArguments(v))) ?? .null).plainText) }
                    }
                    let text = try b.value(i).plainText
                    return { _ in context.output(.hook, stage: stage, text) }
                }
                let (subscription, output, completion, cancel, request) = (try hook(0), try hook(1), try hook(2), try hook(3), try hook(4))
                if subscription == nil && output == nil && completion == nil && cancel == nil && request == nil {
                    return b.upstream.handleEvents().valueStream()
                }
                return b.upstream.handleEvents(
                    receiveSubscription: subscription.map { h in { _ in h(.null) } },
                    receiveOutput: output,
                    receiveCompletion: completion.map { h in
                        { c in
                            switch c {
                            case .finished: h(.string("finished"))
                            case .failure(let e): h(.string(PipelineError.from(e).message))
                            }
                        }
                    },
                    receiveCancel: cancel.map { h in { h(.null) } },
                    receiveRequest: request.map { h in { d in h(d.max.map(Value.int) ?? .string("unlimited")) } }
                ).valueStream()
            },
            infer: Infer.same,
            swift: { b in
                // Each hook prints its message; in a closure, $0 is the value, the completion or the demand.
                let labels = ["receiveSubscription", "receiveOutput", "receiveCompletion", "receiveCancel", "receiveRequest"]
                let parameters = ["_", "value", "completion", "", "demand"]
                let dollars = ["nil", "value", "completion.message", "nil", "(demand.max.map(String.init) ?? \"unlimited\")"]
                var hooks: [String] = []
                if b.isClosure(2) { b.needs(.completionMessage) }
                for i in labels.indices where b.has(i) {
                    let message =
                        b.isClosure(i)
                        ? b.closureBody(i, names: [dollars[i]], kinds: [i == 1 ? b.upstream.kind : .string])?.text ?? "\"\""
                        : Value.quote(b.string(i))
                    let parameter = parameters[i].isEmpty ? "" : (b.isClosure(i) || parameters[i] == "_" ? parameters[i] : "_") + " in "
                    hooks.append("\(labels[i]): { \(parameter)print(\(message)) }")
                }
                return b.then(".handleEvents(\(hooks.joined(separator: ", ")))")
            }),
        CatalogEntry(
            "print", [[p("LABEL", .string, optional: true)]],
            summary: "prints Combine's own line for every event that passes (label: receive value: (1)), on the timeline",
            combine: ".print(_:)",
            example: "from [1, 2] | print \"numbers\"",
            build: .operator { b in
                let label = b.argument(0) == nil ? "" : try b.value(0).plainText
                return b.upstream.print(label, to: OutputLines(context: b.context, stage: b.index)).valueStream()
            },
            infer: Infer.same,
            swift: { b in b.then(b.has(0) ? ".print(\(Value.quote(b.string(0))))" : ".print()") }),
        CatalogEntry(
            "adjacentPairs", [[]],
            summary: "async sequences only: emits each value with the one before it, as [previous, current]",
            combine: "none: a Publisher has no adjacentPairs (swift-async-algorithms' .adjacentPairs())",
            example: "from [1, 2, 3] | values | adjacentPairs",
            build: .asyncOnly, infer: Infer.arrayOfUpstream,
            swift: { b in b.upstream },
            async: AsyncForm(
                sequenceType: "AsyncAdjacentPairsSequence",
                swift: ".adjacentPairs() (swift-async-algorithms' AsyncAdjacentPairsSequence)", difference: nil,
                build: { _, base in base.adjacentPairs().map { Value.array([$0, $1]) }.asyncValues() },
                // A tuple in Swift; the language's pair is an array.
                translate: { b in b.then(".adjacentPairs()", kind: .array(b.upstream.kind)).then(".map { [$0, $1] }") })),
        CatalogEntry(
            "chunks", [[p("COUNT", .positive)]],
            summary: "async sequences only: gathers COUNT values into an array (the last chunk may be shorter); on a publisher, collect COUNT",
            combine: "none: a Publisher has no chunks; Combine's twin is .collect(_:) (swift-async-algorithms' .chunks(ofCount:))",
            example: "from 1...5 | values | chunks 2",
            build: .asyncOnly, infer: Infer.arrayOfUpstream,
            swift: { b in b.upstream },
            async: AsyncForm(
                sequenceType: "AsyncChunksOfCountSequence",
                swift: ".chunks(ofCount:) (swift-async-algorithms' AsyncChunksOfCountSequence)", difference: nil,
                build: { b, base in base.chunks(ofCount: try b.int(0, minimum: 1)).map { Value.array($0) }.asyncValues() },
                translate: { b in b.then(".chunks(ofCount: \(b.value(0)))", kind: .array(b.upstream.kind)) })),
    ]
}

/// `print`'s stream: each line Combine's `print` writes becomes an `.output(.print, …)` event.
final class OutputLines: TextOutputStream, @unchecked Sendable {
    // @unchecked: `pending` is only touched under `lock`; the rest is immutable.
    private let lock = Lock()
    private var pending = ""
    private let context: BuildContext
    private let stage: Int

    init(context: BuildContext, stage: Int) {
        self.context = context
        self.stage = stage
    }

    func write(_ string: String) {
        let lines = lock.guarded { () -> [String] in
            pending += string
            guard let last = pending.lastIndex(of: "\n") else { return [] }
            let complete = pending[..<last].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            pending = String(pending[pending.index(after: last)...])
            return complete
        }
        for line in lines { context.output(.print, stage: stage, line) }
    }
}
