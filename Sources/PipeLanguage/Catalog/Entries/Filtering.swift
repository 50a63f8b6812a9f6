import ReactiveAsync
/// Operators that choose which values pass: filter, first/last, prefix/drop, duplicates, tests.
extension CatalogTable {
    static let filtering: [CatalogEntry] = [
        CatalogEntry(
            "filter", [[p("$0 > 1", .closure(arity: 1))]],
            summary: "passes only the values for which the closure is true", combine: ".filter(_:) / .tryFilter(_:)",
            example: "from 1...6 | filter { $0 % 2 == 0 }",
            build: .operator { b in
                if let p = b.infalliblePredicate(0) { return b.upstream.filter(p).valueStream() }
                return b.upstream.tryFilter(try b.predicate(0)).valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(".filter \(b.closure(0).text)") },
            async: AsyncForm(
                sequenceType: "AsyncThrowingFilterSequence",
                swift:
                    "AsyncSequence.filter(_:) (the standard library's AsyncThrowingFilterSequence: always the throwing form, as a closure here can fail at run time)",
                difference: "pulls again from its base for each dropped element, inside one next(), where Combine asks for one more",
                build: { b, base in
                    let test = try b.predicate(0)
                    return base.filter { try test($0) }.asyncValues()
                })),
        CatalogEntry(
            "first", [[p("$0 > 2", .closure(arity: 1), label: "where", optional: true)]],
            summary: "emits the first value (or the first matching one), then finishes", combine: ".first() / .first(where:)",
            example: "from 1...5 | first where: { $0 > 2 }",
            build: .operator { b in
                if let p = b.infalliblePredicate(0) { return b.upstream.first(where: p).valueStream() }
                if b.argument(0) != nil { return b.upstream.tryFirst(where: try b.predicate(0)).valueStream() }
                return b.upstream.first().valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(b.has(0) ? ".first(where: \(b.closure(0).text))" : ".first()") }),
        CatalogEntry(
            "last", [[p("$0 > 2", .closure(arity: 1), label: "where", optional: true)]],
            summary: "emits the last value (or the last matching one) when upstream finishes", combine: ".last() / .last(where:)",
            example: "from 1...5 | last",
            build: .operator { b in
                if let p = b.infalliblePredicate(0) { return b.upstream.last(where: p).valueStream() }
                if b.argument(0) != nil { return b.upstream.tryLast(where: try b.predicate(0)).valueStream() }
                return b.upstream.last().valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(b.has(0) ? ".last(where: \(b.closure(0).text))" : ".last()") }),
        CatalogEntry(
            "prefix", aliases: ["take"],
            [
                [p("COUNT", .count)], [p("$0 < 3", .closure(arity: 1), label: "while")],
                [p("publisher", .publisher, label: "untilOutputFrom", labelRequired: true)],
            ],
            summary: "passes the first COUNT values (or while a condition holds, or until another publisher emits), then finishes",
            combine: ".prefix(_:) / .prefix(while:) / .prefix(untilOutputFrom:)", example: "interval 100ms | take 3",
            build: .operator { b in
                switch b.stage.overload {
                case 0: return b.upstream.prefix(try b.int(0)).valueStream()
                case 1:
                    if let p = b.infalliblePredicate(0) { return b.upstream.prefix(while: p).valueStream() }
                    return b.upstream.tryPrefix(while: try b.predicate(0)).valueStream()
                default: return b.upstream.prefix(untilOutputFrom: try b.publisher(0)).valueStream()
                }
            },
            infer: Infer.sameWithClosure,
            swift: { b in
                switch b.overload {
                case 0: return b.then(".prefix(\(b.value(0)))")
                case 1: return b.then(".prefix(while: \(b.closure(0).text))")
                default:
                    let (upstream, other) = b.unified(b.publisher(0, expected: nil))
                    return upstream.then(".prefix(untilOutputFrom: \(other.rendered()))")
                }
            },
            async: AsyncForm(
                sequenceType: "AsyncPrefixSequence",
                swift: "AsyncSequence.prefix(_:) / .prefix(while:) (the standard library's AsyncPrefixSequence, AsyncThrowingPrefixWhileSequence)",
                difference:
                    "ends when the consumer asks for the element after the last one, without asking its base again; Combine's finishes and cancels upstream as the last value arrives. untilOutputFrom: has no async form",
                build: { b, base in
                    switch b.stage.overload {
                    case 0: return base.prefix(try b.int(0)).asyncValues()
                    case 1:
                        let test = try b.predicate(0)
                        return try base.prefix { try test($0) }.asyncValues()
                    default: throw b.error(.wrongBuildArgument("prefix", "a count or while: on an async sequence (untilOutputFrom: is a publisher's)"))
                    }
                },
                translate: { b in
                    switch b.overload {
                    case 0: return b.then(".prefix(\(b.value(0)))")
                    case 1: return b.then(".prefix(while: \(b.closure(0).text))")
                    default: return b.unfaithful("prefix untilOutputFrom: has no async form")
                    }
                })),
        CatalogEntry(
            "dropFirst", aliases: ["skip"], [[p("COUNT", .count, optional: true)]],
            summary: "skips the first COUNT values (default 1)", combine: ".dropFirst(_:)", example: "from 1...5 | skip 2",
            build: .operator { b in b.upstream.dropFirst(b.argument(0) == nil ? 1 : try b.int(0)).valueStream() },
            infer: Infer.same,
            swift: { b in b.then(b.has(0) ? ".dropFirst(\(b.value(0)))" : ".dropFirst()") },
            async: AsyncForm(
                sequenceType: "AsyncDropFirstSequence",
                swift: "AsyncSequence.dropFirst(_:) (the standard library's AsyncDropFirstSequence)",
                difference: "pulls the skipped elements inside the first next(), where Combine asks upstream for them as demand",
                build: { b, base in base.dropFirst(b.argument(0) == nil ? 1 : try b.int(0)).asyncValues() })),
        CatalogEntry(
            "drop",
            [
                [p("$0 < 3", .closure(arity: 1), label: "while")],
                [p("publisher", .publisher, label: "untilOutputFrom", labelRequired: true)],
            ],
            summary: "skips values while a condition holds, or until another publisher emits",
            combine: ".drop(while:) / .drop(untilOutputFrom:)", example: "from 1...5 | drop while: { $0 < 3 }",
            build: .operator { b in
                if b.stage.overload == 1 { return b.upstream.drop(untilOutputFrom: try b.publisher(0)).valueStream() }
                if let p = b.infalliblePredicate(0) { return b.upstream.drop(while: p).valueStream() }
                return b.upstream.tryDrop(while: try b.predicate(0)).valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in
                if b.overload == 1 {
                    let (upstream, other) = b.unified(b.publisher(0, expected: nil))
                    return upstream.then(".drop(untilOutputFrom: \(other.rendered()))")
                }
                return b.then(".drop(while: \(b.closure(0).text))")
            }),
        CatalogEntry(
            "removeDuplicates", [[p("$0 == $1", .closure(arity: 2), label: "by", optional: true)]],
            summary: "drops a value equal to the one before it (or for which the closure of previous and current is true)",
            combine: ".removeDuplicates() / .removeDuplicates(by:)",
            example: "from [1, 1, 2, 2, 1] | removeDuplicates",
            build: .operator { b in
                if b.argument(0) != nil { return b.upstream.tryRemoveDuplicates(by: try b.predicate2(0)).valueStream() }
                return b.upstream.removeDuplicates().valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(b.has(0) ? ".removeDuplicates(by: \(b.closure(0, arity: 2).text))" : ".removeDuplicates()") },
            async: AsyncForm(
                sequenceType: "AsyncRemoveDuplicatesSequence",
                swift: "AsyncSequence.removeDuplicates() / .removeDuplicates(by:) (swift-async-algorithms' AsyncRemoveDuplicatesSequence)",
                difference: nil,
                build: { b, base in
                    guard b.argument(0) != nil else { return base.removeDuplicates().asyncValues() }
                    let same = try b.predicate2(0)
                    return base.removeDuplicates { try same($0, $1) }.asyncValues()
                })),
        CatalogEntry(
            "ignoreOutput", [[]],
            summary: "drops every value, keeps the completion", combine: ".ignoreOutput()",
            example: "from 1...3 | ignoreOutput",
            build: .operator { b in b.upstream.ignoreOutput().map { (never: Never) -> Value in }.valueStream() },
            infer: { Shape(kind: .nothing, canFail: $0.upstream.canFail) },
            swift: { b in b.then(".ignoreOutput()", kind: .nothing) }),
        CatalogEntry(
            "replaceEmpty", [[p("VALUE", .value)]],
            summary: "emits VALUE if upstream finishes without a value", combine: ".replaceEmpty(with:)",
            example: "empty | replaceEmpty 0",
            build: .operator { b in b.upstream.replaceEmpty(with: try b.value(0)).valueStream() },
            infer: Infer.joined(0), joinsArgument: 0,
            swift: { b in b.then(".replaceEmpty(with: \(b.value(0)))") }),
        CatalogEntry(
            "min", [[p("$0 < $1", .closure(arity: 2), label: "by", optional: true)]],
            summary: "emits the smallest value when upstream finishes (ordered by the closure: is $0 before $1?)",
            combine: ".min() / .min(by:)",
            example: "from [3, 1, 2] | min",
            build: .operator { b in
                if b.argument(0) != nil { return b.upstream.tryMin(by: try b.predicate2(0)).valueStream() }
                let compiler = ExpressionCompiler(source: b.source)
                let span = b.stage.stage.nameSpan
                return b.upstream.tryMin { try ExpressionCompiler.less($0, $1, compiler, span) }.valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(b.has(0) ? ".min(by: \(b.closure(0, arity: 2).text))" : ".min()") }),
        CatalogEntry(
            "max", [[p("$0 < $1", .closure(arity: 2), label: "by", optional: true)]],
            summary: "emits the largest value when upstream finishes (ordered by the closure: is $0 before $1?)",
            combine: ".max() / .max(by:)",
            example: "from [3, 1, 2] | max",
            build: .operator { b in
                if b.argument(0) != nil { return b.upstream.tryMax(by: try b.predicate2(0)).valueStream() }
                let compiler = ExpressionCompiler(source: b.source)
                let span = b.stage.stage.nameSpan
                return b.upstream.tryMax { try ExpressionCompiler.less($0, $1, compiler, span) }.valueStream()
            },
            infer: Infer.sameWithClosure,
            swift: { b in b.then(b.has(0) ? ".max(by: \(b.closure(0, arity: 2).text))" : ".max()") }),
        CatalogEntry(
            "contains", [[p("VALUE", .value)], [p("$0 > 2", .closure(arity: 1), label: "where")]],
            summary: "emits true as soon as VALUE (or a value matching the closure) arrives, or false when upstream finishes",
            combine: ".contains(_:) / .contains(where:)",
            example: "from 1...5 | contains 3",
            build: .operator { b in
                if b.stage.overload == 1, let p = b.infalliblePredicate(0) { return b.upstream.contains(where: p).map(Value.bool).valueStream() }
                if b.stage.overload == 1 { return b.upstream.tryContains(where: try b.predicate(0)).map(Value.bool).valueStream() }
                return b.upstream.contains(try b.value(0)).map(Value.bool).valueStream()
            },
            infer: Infer.boolWithClosure,
            swift: { b in
                b.then(b.overload == 1 ? ".contains(where: \(b.closure(0).text))" : ".contains(\(b.value(0)))", kind: .bool)
            }),
        CatalogEntry(
            "allSatisfy", [[p("$0 > 0", .closure(arity: 1))]],
            summary: "emits whether every value satisfies the closure", combine: ".allSatisfy(_:)",
            example: "from 1...5 | allSatisfy { $0 > 0 }",
            build: .operator { b in
                if let p = b.infalliblePredicate(0) { return b.upstream.allSatisfy(p).map(Value.bool).valueStream() }
                return b.upstream.tryAllSatisfy(try b.predicate(0)).map(Value.bool).valueStream()
            },
            infer: Infer.boolWithClosure,
            swift: { b in b.then(".allSatisfy \(b.closure(0).text)", kind: .bool) }),
        CatalogEntry(
            "output", [[p("INDEX", .count, label: "at", labelRequired: true)]],
            summary: "emits only the value at an index", combine: ".output(at:)",
            example: "from [10, 20, 30] | output at: 1",
            build: .operator { b in b.upstream.output(at: try b.int(0)).valueStream() }, infer: Infer.same,
            swift: { b in b.then(".output(at: \(b.value(0)))") }),
    ]
}
