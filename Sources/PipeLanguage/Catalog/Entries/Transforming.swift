/// Operators that transform values: map, accumulate, gather.
extension CatalogTable {
    static let transforming: [CatalogEntry] = [
        CatalogEntry(
            "map", [[p("$0 * 2", .closure(arity: 1))]],
            summary: "transforms each value", combine: ".map(_:) (.tryMap when the closure can fail)",
            example: "from [1, 2, 3] | map { $0 * 10 }",
            build: .operator { b in
                let f = try b.closure(0)
                return b.upstream.tryMap { try f(ClosureArguments($0)) }.valueStream()
            },
            infer: Infer.closureResult),
        CatalogEntry(
            "compactMap", [[p("$0 > 0 ? $0 : nil", .closure(arity: 1))]],
            summary: "transforms each value and drops nil results", combine: ".compactMap(_:)",
            example: "from [1, -1, 2] | compactMap { $0 > 0 ? $0 : nil }",
            build: .operator { b in
                let f = try b.closure(0)
                return b.upstream.tryCompactMap { v -> Value? in
                    let r = try f(ClosureArguments(v))
                    return r == .null ? nil : r
                }.valueStream()
            },
            infer: Infer.closureResult),
        CatalogEntry(
            "scan", [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
            summary: "emits each running accumulation ($0 is the accumulator, $1 the value)", combine: ".scan(_:_:)",
            example: "from 1...4 | scan 0 { $0 + $1 }",
            build: .operator { b in
                let initial = try b.value(0)
                let f = try b.closure(1)
                return b.upstream.tryScan(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
            },
            infer: Infer.accumulator),
        CatalogEntry(
            "reduce", [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
            summary: "emits the final accumulation when upstream finishes", combine: ".reduce(_:_:)",
            example: "from 1...4 | reduce 0 { $0 + $1 }",
            build: .operator { b in
                let initial = try b.value(0)
                let f = try b.closure(1)
                return b.upstream.tryReduce(initial) { try f(ClosureArguments($0, $1)) }.valueStream()
            },
            infer: Infer.accumulator),
        CatalogEntry(
            "count", [[]],
            summary: "emits how many values upstream produced, when it finishes", combine: ".count()",
            example: "from 1...5 | count",
            build: .operator { b in b.upstream.count().map(Value.int).valueStream() },
            infer: Infer.fixedKeepFailure(.int)),
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
            infer: Infer.arrayOfUpstream),
        CatalogEntry(
            "replaceNil", [[p("VALUE", .value)]],
            summary: "replaces nil values with VALUE", combine: ".replaceNil(with:)",
            example: "from [1, nil, 3] | replaceNil 0",
            build: .operator { b in
                // `Value` is not an Optional, so Combine's `replaceNil` (which maps `T?`) is spelt with `map`.
                let v = try b.value(0)
                return b.upstream.map { $0 == .null ? v : $0 }.valueStream()
            },
            infer: Infer.same),
        CatalogEntry(
            "handleEvents", [[]],
            summary: "passes everything through (use :trace on to see each stage's events)", combine: ".handleEvents(…)",
            example: "just 1 | handleEvents",
            build: .operator { b in b.upstream.handleEvents().valueStream() }, infer: Infer.same),
    ]
}
