/// Operators that combine publishers: merge, zip, combineLatest, the higher-order ones, sharing.
extension CatalogTable {
    static let combining: [CatalogEntry] = [
        CatalogEntry(
            "flatMap",
            [[p("N", .positive, label: "maxPublishers", optional: true, labelRequired: true),
              p("pipeline over $0", .pipelineClosure(.upstreamValue))]],
            summary: "maps each value to a publisher and merges their values", combine: ".flatMap(maxPublishers:_:)",
            example: "from [1, 2] | flatMap { from [$0, $0 * 10] }",
            build: .operator { b in
                let max: Subscribers.Demand = b.argument(0) == nil ? .unlimited : .max(try b.int(0, minimum: 1))
                let factory = try b.pipelineFactory(1)
                return b.upstream.flatMap(maxPublishers: max) { factory($0) }.valueStream()
            },
            infer: Infer.nestedPipelineMerged(1)),
        CatalogEntry(
            "merge", [[p("publisher", .publisher)]],
            summary: "interleaves another publisher's values with upstream's", combine: ".merge(with:)",
            example: "interval 100ms | take 2 | merge (interval 150ms | take 2)",
            build: .operator { b in b.upstream.merge(with: try b.publisher(0)).valueStream() },
            infer: Infer.combined(.same)),
        CatalogEntry(
            "zip", [[p("publisher", .publisher)]],
            summary: "pairs values one-to-one with another publisher's, as [a, b]", combine: ".zip(_:)",
            example: "from [1, 2] | zip (from [\"a\", \"b\"])",
            build: .operator { b in b.upstream.zip(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream() },
            infer: Infer.combined(.pair)),
        CatalogEntry(
            "combineLatest", [[p("publisher", .publisher)]],
            summary: "emits [a, b] with the latest of both whenever either emits", combine: ".combineLatest(_:)",
            example: "interval 100ms | take 3 | combineLatest (interval 150ms | take 2)",
            build: .operator { b in b.upstream.combineLatest(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream() },
            infer: Infer.combined(.pair)),
        CatalogEntry(
            "switchToLatest", [[p("pipeline over $0", .pipelineClosure(.upstreamValue))]],
            summary: "maps each value to a publisher and follows only the latest one", combine: ".map { … }.switchToLatest()",
            example: "from [1, 2] | switchToLatest { interval 100ms | take 2 }",
            build: .operator { b in
                let factory = try b.pipelineFactory(0)
                return b.upstream.map { factory($0) }.switchToLatest().valueStream()
            },
            infer: Infer.nestedPipelineMerged(0)),
        CatalogEntry(
            "append", [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
            summary: "emits a value or another publisher's values after upstream finishes", combine: ".append(_:)",
            example: "from [1, 2] | append 3",
            build: .operator { b in
                if b.stage.overload == 0 { return b.upstream.append(try b.value(0)).valueStream() }
                return b.upstream.append(try b.publisher(0)).valueStream()
            },
            infer: Infer.same),
        CatalogEntry(
            "prepend", [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
            summary: "emits a value or another publisher's values before upstream's", combine: ".prepend(_:)",
            example: "from [2, 3] | prepend 1",
            build: .operator { b in
                if b.stage.overload == 0 { return b.upstream.prepend(try b.value(0)).valueStream() }
                return b.upstream.prepend(try b.publisher(0)).valueStream()
            },
            infer: Infer.same),
        CatalogEntry(
            "share", [[]],
            summary: "shares one upstream subscription among subscribers", combine: ".share()",
            example: "let t = interval 100ms | take 3 | share",
            build: .operator { b in b.upstream.share().valueStream() }, infer: Infer.same, sharesUpstream: true),
    ]
}
