/// Operators that handle failures.
extension CatalogTable {
    static let errors: [CatalogEntry] = [
        CatalogEntry(
            "replaceError", [[p("VALUE", .value)]],
            summary: "replaces a failure with one value, then finishes", combine: ".replaceError(with:)",
            example: "fail \"boom\" | replaceError -1",
            build: .operator { b in
                b.upstream.replaceError(with: try b.value(0)).setFailureType(to: (any Error).self).valueStream()
            },
            infer: { Shape(kind: $0.upstream.kind.merged($0.constantKind(0)), canFail: false) },
            noEffectUnlessUpstreamFails: { .replaceErrorHasNoEffect }, joinsArgument: 0,
            swift: { b in
                let (value, kind) = b.expression(0)
                return b.then(".replaceError(with: \(value))", kind: b.upstream.kind.merged(kind), fails: false)
            }),
        CatalogEntry(
            "catch", [[p("pipeline", .pipelineClosure(.errorMessage))]],
            summary: "replaces a failure with another pipeline ($0 is the error message)", combine: ".catch(_:)",
            example: "fail \"boom\" | catch { just 0 }",
            build: .operator { b in
                // `$0` inside the replacement pipeline is the error's message.
                let factory = try b.pipelineFactory(0)
                return b.upstream.catch { factory(.string(PipelineError.from($0).message)) }.valueStream()
            },
            infer: { input in
                let inner = input.nestedShape(0)
                return Shape(kind: input.upstream.kind.merged(inner.kind), canFail: inner.canFail)
            },
            noEffectUnlessUpstreamFails: { .catchHasNoEffect }, joinsArgument: 0,
            swift: { b in
                // $0 inside the replacement is the failure's message.
                let (closure, inner) = b.pipelineClosure(0, parameter: "error", dollar: "String(describing: PARAM)", kind: .string)
                return b.then(".catch \(closure)", kind: b.kind, fails: inner.fails)
            }),
        CatalogEntry(
            "retry", [[p("TIMES", .count)]],
            summary: "resubscribes after a failure, at most TIMES times", combine: ".retry(_:)",
            example: "just 5 | asyncMap flaky 2 | retry 3",
            build: .operator { b in b.upstream.retry(try b.int(0)).valueStream() },
            infer: Infer.same,
            noEffectUnlessUpstreamFails: { .retryHasNoEffect },
            swift: { b in b.then(".retry(\(b.value(0)))") }),
    ]
}
