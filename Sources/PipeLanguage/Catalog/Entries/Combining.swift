import ReactiveAsync
/// Operators that combine publishers: merge, zip, combineLatest, the higher-order ones, sharing.
extension CatalogTable {
    static let combining: [CatalogEntry] = [
        CatalogEntry(
            "flatMap",
            [
                [
                    p("N", .positive, label: "maxPublishers", optional: true, labelRequired: true),
                    p("pipeline over $0", .pipelineClosure(.upstreamValue)),
                ]
            ],
            summary: "maps each value to a publisher and merges their values; an inner's failure also cancels upstream (Combine leaves it running)",
            combine: ".flatMap { … } / .flatMap(maxPublishers:_:)",
            example: "from [1, 2] | flatMap { from [$0, $0 * 10] }",
            build: .operator { b in
                let max: Subscribers.Demand = b.argument(0) == nil ? .unlimited : .max(try b.int(0, minimum: 1))
                let factory = try b.pipelineFactory(1)
                return b.upstream.flatMap(maxPublishers: max) { factory($0) }.valueStream()
            },
            infer: Infer.nestedPipelineMerged(1),
            swift: { b in
                let (closure, inner) = b.pipelineClosure(1, parameter: "value", kind: b.upstream.kind)
                let max = b.has(0) ? "(maxPublishers: .max(\(b.value(0))))" : ""
                return b.then(".flatMap\(max) \(closure)", kind: inner.kind, fails: b.upstream.fails || inner.fails)
            }),
        CatalogEntry(
            "merge", [[p("publisher", .publisher)]],
            summary: "interleaves another publisher's values with upstream's", combine: ".merge(with:)",
            example: "interval 100ms | take 2 | merge (interval 150ms | take 2)",
            build: .operator { b in b.upstream.merge(with: try b.publisher(0)).valueStream() },
            infer: Infer.combined(.same), joinsArgument: 0,
            swift: { b in
                let (upstream, other) = b.unified(b.publisher(0))
                return upstream.then(".merge(with: \(other.rendered()))", kind: b.kind)
            },
            async: AsyncForm(
                sequenceType: "AsyncMerge2Sequence",
                swift: "merge(_:_:) (swift-async-algorithms' AsyncMerge2Sequence; the argument crosses with .values)",
                difference:
                    "a task per iteration pulls both bases while the consumer waits and buffers what arrives meanwhile (DifferencesCombining.md, Tasks and demand)",
                build: { b, base in merge(base, try b.asyncSequence(0)).asyncValues() },
                translate: { b in AsyncSwift.combining("merge", b, pairs: false) })),
        CatalogEntry(
            "zip", [[p("publisher", .publisher)]],
            summary: "pairs values one-to-one with another publisher's, as [a, b]", combine: ".zip(_:)",
            example: "from [1, 2] | zip (from [\"a\", \"b\"])",
            build: .operator { b in b.upstream.zip(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream() },
            infer: Infer.combined(.pair),
            swift: { b in
                let (upstream, other) = b.unified(b.publisher(0, expected: nil))
                let zipped = upstream.then(".zip(\(other.rendered()))", kind: .array(upstream.kind))
                // The language pairs values as an array; Swift as a tuple, made an array when the kinds agree.
                if upstream.kind == other.kind { return zipped.then(".map { [$0, $1] }") }
                var pair = zipped
                pair.pair = [upstream.kind, other.kind]
                return pair
            },
            async: AsyncForm(
                sequenceType: "AsyncZip2Sequence",
                swift: "zip(_:_:) (swift-async-algorithms' AsyncZip2Sequence; the argument crosses with .values)",
                difference:
                    "each next() lets both bases produce exactly one element, concurrently; a finishing base ends it at once (DifferencesCombining.md, Tasks and demand)",
                build: { b, base in zip(base, try b.asyncSequence(0)).map { Value.array([$0, $1]) }.asyncValues() },
                translate: { b in AsyncSwift.combining("zip", b, pairs: true) })),
        CatalogEntry(
            "combineLatest", [[p("publisher", .publisher)]],
            summary: "emits [a, b] with the latest of both whenever either emits, once both have a value", combine: ".combineLatest(_:)",
            example: "interval 100ms | take 3 | combineLatest (interval 150ms | take 2)",
            build: .operator { b in b.upstream.combineLatest(try b.publisher(0)).map { Value.array([$0, $1]) }.valueStream() },
            infer: Infer.combined(.pair),
            swift: { b in
                let (upstream, other) = b.unified(b.publisher(0, expected: nil))
                let combined = upstream.then(".combineLatest(\(other.rendered()))", kind: .array(upstream.kind))
                if upstream.kind == other.kind { return combined.then(".map { [$0, $1] }") }
                var pair = combined
                pair.pair = [upstream.kind, other.kind]
                return pair
            },
            async: AsyncForm(
                sequenceType: "AsyncCombineLatest2Sequence",
                swift: "combineLatest(_:_:) (swift-async-algorithms' AsyncCombineLatest2Sequence; the argument crosses with .values)",
                difference:
                    "pairs made while nobody pulls are buffered; a base that finishes before producing ends it (DifferencesCombining.md, Tasks and demand)",
                build: { b, base in combineLatest(base, try b.asyncSequence(0)).map { Value.array([$0, $1]) }.asyncValues() },
                translate: { b in AsyncSwift.combining("combineLatest", b, pairs: true) })),
        CatalogEntry(
            "switchToLatest", [[p("pipeline over $0", .pipelineClosure(.upstreamValue))]],
            summary: "maps each value to a publisher and follows only the latest one", combine: ".map { … }.switchToLatest()",
            example: "from [1, 2] | switchToLatest { interval 100ms | take 2 }",
            build: .operator { b in
                let factory = try b.pipelineFactory(0)
                return b.upstream.map { factory($0) }.switchToLatest().valueStream()
            },
            infer: Infer.nestedPipelineMerged(0),
            swift: { b in
                let (closure, inner) = b.pipelineClosure(0, parameter: "value", kind: b.upstream.kind, failing: b.upstream.fails)
                let upstream = inner.fails ? b.upstream.failing : b.upstream
                return upstream.then(".map \(closure)").then(".switchToLatest()", kind: inner.kind, fails: inner.fails)
            }),
        CatalogEntry(
            "append", [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
            summary: "emits a value or another publisher's values after upstream finishes", combine: ".append(_:)",
            example: "from [1, 2] | append 3",
            build: .operator { b in
                if b.stage.overload == 0 { return b.upstream.append(try b.value(0)).valueStream() }
                return b.upstream.append(try b.publisher(0)).valueStream()
            },
            infer: Infer.joined(0), joinsArgument: 0,
            swift: { b in
                if b.overload == 0 { return b.then(".append(\(b.value(0)))") }
                let (upstream, other) = b.unified(b.publisher(0))
                return upstream.then(".append(\(other.rendered()))", kind: b.kind)
            }),
        CatalogEntry(
            "prepend", [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
            summary: "emits a value or another publisher's values before upstream's", combine: ".prepend(_:)",
            example: "from [2, 3] | prepend 1",
            build: .operator { b in
                if b.stage.overload == 0 { return b.upstream.prepend(try b.value(0)).valueStream() }
                return b.upstream.prepend(try b.publisher(0)).valueStream()
            },
            infer: Infer.joined(0), joinsArgument: 0,
            swift: { b in
                if b.overload == 0 { return b.then(".prepend(\(b.value(0)))") }
                let (upstream, other) = b.unified(b.publisher(0))
                return upstream.then(".prepend(\(other.rendered()))", kind: b.kind)
            }),
        CatalogEntry(
            "share", [[]],
            summary: "shares one upstream subscription among subscribers", combine: ".share()",
            // Two subscribers, the second 150 ms late: it joins the one upstream subscription and
            // sees 1 and 2 when the first does (without `share` it would start a timer of its own).
            example: "let t = interval 100ms | take 3 | share\nt | merge (timer 150ms | flatMap { t })\nexpect subscriptions t 1",
            build: .operator { b in b.upstream.share().valueStream() }, infer: Infer.same, sharesUpstream: true,
            swift: { b in b.then(".share()") }),
    ]
}
