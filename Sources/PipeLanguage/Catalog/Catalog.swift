/// The one table of every source, operator and terminal. `:help`, tab completion, argument
/// checking, the static pass and the graph builder all read it; adding an operator is adding an
/// entry here (and its builder in `Builders.swift`).
///
/// ```swift
/// Catalog.entry(named: "take")?.name        // "prefix"
/// Catalog.suggestion(for: "retyr", among: Catalog.names)   // "retry"
/// ```
public enum Catalog {
    /// Every entry, sources first, then operators, then terminals.
    public static var entries: [CatalogEntry] { table }

    /// The entry named `name` or with `name` as an alias.
    public static func entry(named name: String) -> CatalogEntry? {
        byName[name].map { table[$0] }
    }

    /// The closest of `candidates` to `name` by edit distance (< 4), or nil.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        Suggestions.closest(to: name, among: candidates)
    }

    /// Every name and alias.
    public static var names: [String] { table.flatMap { [$0.name] + $0.aliases } }

    static func names(of kind: CatalogEntry.Kind) -> [String] {
        table.filter { $0.kind == kind }.flatMap { [$0.name] + $0.aliases }
    }

    static let byName: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, e) in table.enumerated() {
            for n in [e.name] + e.aliases where map[n] == nil { map[n] = i }
        }
        return map
    }()

    static let table: [CatalogEntry] = CatalogTable.all.filter { $0.build != nil || $0.kind == .terminal }
}

private func p(_ placeholder: String, _ kind: ParameterKind, label: String? = nil, optional: Bool = false, labelRequired: Bool = false) -> Parameter {
    Parameter(label: label, placeholder: placeholder, kind: kind, optional: optional, labelRequired: labelRequired)
}

private func entry(
    _ name: String, aliases: [String] = [], _ kind: CatalogEntry.Kind, _ overloads: [[Parameter]],
    summary: String, combine: String, example: String, build: Builder?, infer: @escaping Inference
) -> CatalogEntry {
    let signature = overloads.map { params in
        ([name] + params.map { param in
            var text = param.label.map { "\($0): " } ?? ""
            switch param.kind {
            case .closure, .pipelineClosure: text += "{ \(param.placeholder) }"
            case .publisher: text += "(\(param.placeholder))"
            case .keyword(let w): text += w
            default: text += param.placeholder
            }
            return param.optional ? "[\(text)]" : text
        }).joined(separator: " ")
    }.joined(separator: "\n")
    return CatalogEntry(
        name: name, aliases: aliases, kind: kind, signature: signature, summary: summary, combine: combine,
        example: example, signatureNote: "signature: " + signature.split(separator: "\n").joined(separator: " or "), overloads: overloads, build: build, infer: infer)
}

enum CatalogTable {
    static let all: [CatalogEntry] = sources + operators + terminals

    static let sources: [CatalogEntry] = [
        entry("just", .source, [[p("VALUE", .value)]],
              summary: "emits one value, then finishes", combine: "Just(_:)", example: "just 1",
              build: Build.just, infer: Infer.justValue),
        entry("from", .source, [[p("ARRAY-OR-RANGE", .sequence)]],
              summary: "emits each element of an array or range, then finishes", combine: "[…].publisher",
              example: "from [1, 2, 3]", build: Build.from, infer: Infer.fromSequence),
        entry("empty", .source, [[]],
              summary: "finishes at once without a value", combine: "Empty()", example: "empty",
              build: Build.empty, infer: Infer.fixed(.nothing, fails: false)),
        entry("never", .source, [[]],
              summary: "never emits and never completes", combine: "Empty(completeImmediately: false)",
              example: "never | timeout 100ms", build: Build.never, infer: Infer.fixed(.nothing, fails: false)),
        entry("fail", .source, [[p("MESSAGE", .string)]],
              summary: "fails at once with a message", combine: "Fail(error:)", example: "fail \"boom\"",
              build: Build.fail, infer: Infer.fixed(.nothing, fails: true)),
        entry("interval", .source, [[p("PERIOD", .duration)]],
              summary: "emits 0, 1, 2, … every period", combine: "Timer.publish(every:on:in:).autoconnect()",
              example: "interval 100ms | take 3", build: Build.interval, infer: Infer.fixed(.int, fails: false)),
        entry("timer", .source, [[p("DELAY", .duration)]],
              summary: "emits 0 once after a delay, then finishes", combine: "Just(0).delay(for:scheduler:)",
              example: "timer 1s", build: Build.timer, infer: Infer.fixed(.int, fails: false)),
        entry("future", .source, [[p("delay", .keyword("delay")), p("D", .duration), p("value", .keyword("value")), p("VALUE", .value)]],
              summary: "eager: starts at once and emits its value after the delay (every subscriber gets it)",
              combine: "Future { promise in … }", example: "future delay 200 value 42",
              build: Build.future, infer: Infer.argumentKind(3)),
        entry("deferred", .source, [[p("pipeline", .pipelineClosure)]],
              summary: "lazy: builds its pipeline anew for each subscriber", combine: "Deferred { … }",
              example: "deferred { future delay 200 value 42 }", build: Build.deferred, infer: Infer.innerPipeline(0)),
        entry("subject", .source, [[]],
              summary: "a hot source you send into with NAME.send VALUE (bind it with let)", combine: "PassthroughSubject<Value, Error>()",
              example: "let s = subject", build: Build.subject, infer: Infer.fixed(.any, fails: true)),
        entry("currentValue", .source, [[p("VALUE", .value)]],
              summary: "a subject that remembers its latest value and replays it to new subscribers",
              combine: "CurrentValueSubject<Value, Error>(_:)", example: "let c = currentValue 0",
              build: Build.currentValue, infer: Infer.anyFailing),
    ]

    static let operators: [CatalogEntry] = [
        entry("map", .operator, [[p("$0 * 2", .closure(arity: 1))]],
              summary: "transforms each value", combine: ".map(_:) (.tryMap when the closure can fail)",
              example: "from [1, 2, 3] | map { $0 * 10 }", build: Build.map, infer: Infer.closureResult),
        entry("filter", .operator, [[p("$0 > 1", .closure(arity: 1))]],
              summary: "passes only the values for which the closure is true", combine: ".filter(_:) / .tryFilter(_:)",
              example: "from 1...6 | filter { $0 % 2 == 0 }", build: Build.filter, infer: Infer.sameWithClosure),
        entry("compactMap", .operator, [[p("$0 > 0 ? $0 : nil", .closure(arity: 1))]],
              summary: "transforms each value and drops nil results", combine: ".compactMap(_:)",
              example: "from [1, -1, 2] | compactMap { $0 > 0 ? $0 : nil }", build: Build.compactMap, infer: Infer.closureResult),
        entry("scan", .operator, [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
              summary: "emits each running accumulation ($0 is the accumulator, $1 the value)", combine: ".scan(_:_:)",
              example: "from 1...4 | scan 0 { $0 + $1 }", build: Build.scan, infer: Infer.accumulator),
        entry("reduce", .operator, [[p("INITIAL", .value), p("$0 + $1", .closure(arity: 2))]],
              summary: "emits the final accumulation when upstream finishes", combine: ".reduce(_:_:)",
              example: "from 1...4 | reduce 0 { $0 + $1 }", build: Build.reduce, infer: Infer.accumulator),
        entry("count", .operator, [[]],
              summary: "emits how many values upstream produced, when it finishes", combine: ".count()",
              example: "from 1...5 | count", build: Build.count, infer: Infer.fixedKeepFailure(.int)),
        entry("collect", .operator, [[p("COUNT", .positive, optional: true)], [p("D", .duration, label: "byTime", labelRequired: true)]],
              summary: "gathers values into arrays (all of them, every COUNT, or per time window)",
              combine: ".collect() / .collect(_:) / .collect(.byTime(_:_:))", example: "from 1...5 | collect 2",
              build: Build.collect, infer: Infer.arrayOfUpstream),
        entry("first", .operator, [[p("$0 > 2", .closure(arity: 1), label: "where", optional: true, labelRequired: true)]],
              summary: "emits the first value (or the first matching one), then finishes", combine: ".first() / .first(where:)",
              example: "from 1...5 | first where: { $0 > 2 }", build: Build.first, infer: Infer.sameWithClosure),
        entry("last", .operator, [[p("$0 > 2", .closure(arity: 1), label: "where", optional: true, labelRequired: true)]],
              summary: "emits the last value (or the last matching one) when upstream finishes", combine: ".last() / .last(where:)",
              example: "from 1...5 | last", build: Build.last, infer: Infer.sameWithClosure),
        entry("prefix", aliases: ["take"], .operator,
              [[p("COUNT", .count)], [p("$0 < 3", .closure(arity: 1), label: "while", labelRequired: true)],
               [p("publisher", .publisher, label: "untilOutputFrom", labelRequired: true)]],
              summary: "passes the first COUNT values (or while a condition holds, or until another publisher emits), then finishes",
              combine: ".prefix(_:) / .prefix(while:) / .prefix(untilOutputFrom:)", example: "interval 100ms | take 3",
              build: Build.prefix, infer: Infer.sameWithClosure),
        entry("dropFirst", aliases: ["skip"], .operator,
              [[p("COUNT", .count, optional: true)]],
              summary: "skips the first COUNT values (default 1)", combine: ".dropFirst(_:)", example: "from 1...5 | skip 2",
              build: Build.dropFirst, infer: Infer.same),
        entry("drop", .operator,
              [[p("$0 < 3", .closure(arity: 1), label: "while", labelRequired: true)],
             [p("publisher", .publisher, label: "untilOutputFrom", labelRequired: true)]],
              summary: "skips values while a condition holds, or until another publisher emits",
              combine: ".drop(while:) / .drop(untilOutputFrom:)", example: "from 1...5 | drop while: { $0 < 3 }",
              build: Build.drop, infer: Infer.sameWithClosure),
        entry("removeDuplicates", .operator, [[]],
              summary: "drops a value equal to the one before it", combine: ".removeDuplicates()",
              example: "from [1, 1, 2, 2, 1] | removeDuplicates", build: Build.removeDuplicates, infer: Infer.same),
        entry("ignoreOutput", .operator, [[]],
              summary: "drops every value, keeps the completion", combine: ".ignoreOutput()",
              example: "from 1...3 | ignoreOutput", build: Build.ignoreOutput, infer: Infer.same),
        entry("replaceEmpty", .operator, [[p("VALUE", .value)]],
              summary: "emits VALUE if upstream finishes without a value", combine: ".replaceEmpty(with:)",
              example: "empty | replaceEmpty 0", build: Build.replaceEmpty, infer: Infer.same),
        entry("replaceNil", .operator, [[p("VALUE", .value)]],
              summary: "replaces nil values with VALUE", combine: ".replaceNil(with:)",
              example: "from [1, nil, 3] | replaceNil 0", build: Build.replaceNil, infer: Infer.same),
        entry("replaceError", .operator, [[p("VALUE", .value)]],
              summary: "replaces a failure with one value, then finishes", combine: ".replaceError(with:)",
              example: "fail \"boom\" | replaceError -1", build: Build.replaceError, infer: Infer.replaceError),
        entry("min", .operator, [[]],
              summary: "emits the smallest value when upstream finishes", combine: ".min()",
              example: "from [3, 1, 2] | min", build: Build.min, infer: Infer.same),
        entry("max", .operator, [[]],
              summary: "emits the largest value when upstream finishes", combine: ".max()",
              example: "from [3, 1, 2] | max", build: Build.max, infer: Infer.same),
        entry("contains", .operator, [[p("VALUE", .value)]],
              summary: "emits true as soon as VALUE arrives, or false when upstream finishes", combine: ".contains(_:)",
              example: "from 1...5 | contains 3", build: Build.contains, infer: Infer.fixedKeepFailure(.bool)),
        entry("allSatisfy", .operator, [[p("$0 > 0", .closure(arity: 1))]],
              summary: "emits whether every value satisfies the closure", combine: ".allSatisfy(_:)",
              example: "from 1...5 | allSatisfy { $0 > 0 }", build: Build.allSatisfy, infer: Infer.boolWithClosure),
        entry("output", .operator, [[p("INDEX", .count, label: "at", labelRequired: true)]],
              summary: "emits only the value at an index", combine: ".output(at:)",
              example: "from [10, 20, 30] | output at: 1", build: Build.output, infer: Infer.same),
        entry("handleEvents", .operator, [[]],
              summary: "passes everything through (use :trace on to see each stage's events)", combine: ".handleEvents(…)",
              example: "just 1 | handleEvents", build: Build.handleEvents, infer: Infer.same),
        entry("share", .operator, [[]],
              summary: "shares one upstream subscription among subscribers", combine: ".share()",
              example: "let t = interval 100ms | take 3 | share", build: Build.share, infer: Infer.same),
        entry("flatMap", .operator, [[p("N", .positive, label: "maxPublishers", optional: true, labelRequired: true), p("pipeline over $0", .pipelineClosure)]],
              summary: "maps each value to a publisher and merges their values", combine: ".flatMap(maxPublishers:_:)",
              example: "from [1, 2] | flatMap { from [$0, $0 * 10] }", build: Build.flatMap, infer: Infer.innerPipelineMerged(1)),
        entry("merge", .operator, [[p("publisher", .publisher)]],
              summary: "interleaves another publisher's values with upstream's", combine: ".merge(with:)",
              example: "interval 100ms | take 2 | merge (interval 150ms | take 2)", build: Build.merge, infer: Infer.combined(.same)),
        entry("zip", .operator, [[p("publisher", .publisher)]],
              summary: "pairs values one-to-one with another publisher's, as [a, b]", combine: ".zip(_:)",
              example: "from [1, 2] | zip (from [\"a\", \"b\"])", build: Build.zip, infer: Infer.combined(.pair)),
        entry("combineLatest", .operator, [[p("publisher", .publisher)]],
              summary: "emits [a, b] with the latest of both whenever either emits", combine: ".combineLatest(_:)",
              example: "interval 100ms | take 3 | combineLatest (interval 150ms | take 2)", build: Build.combineLatest, infer: Infer.combined(.pair)),
        entry("switchToLatest", .operator, [[p("pipeline over $0", .pipelineClosure)]],
              summary: "maps each value to a publisher and follows only the latest one", combine: ".map { … }.switchToLatest()",
              example: "from [1, 2] | switchToLatest { interval 100ms | take 2 }", build: Build.switchToLatest, infer: Infer.innerPipelineMerged(0)),
        entry("append", .operator, [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
              summary: "emits a value or another publisher's values after upstream finishes", combine: ".append(_:)",
              example: "from [1, 2] | append 3", build: Build.append, infer: Infer.same),
        entry("prepend", .operator, [[p("VALUE-OR-PUBLISHER", .value)], [p("publisher", .publisher)]],
              summary: "emits a value or another publisher's values before upstream's", combine: ".prepend(_:)",
              example: "from [2, 3] | prepend 1", build: Build.prepend, infer: Infer.same),
        entry("catch", .operator, [[p("pipeline", .pipelineClosure)]],
              summary: "replaces a failure with another pipeline ($0 is the error message)", combine: ".catch(_:)",
              example: "fail \"boom\" | catch { just 0 }", build: Build.catchError, infer: Infer.catchError),
        entry("retry", .operator, [[p("TIMES", .count)]],
              summary: "resubscribes after a failure, at most TIMES times", combine: ".retry(_:)",
              example: "just 5 | asyncMap flaky 2 | retry 3", build: Build.retry, infer: Infer.retry),
        entry("delay", .operator, [[p("D", .duration)]],
              summary: "delays every value and the completion by D", combine: ".delay(for:scheduler:)",
              example: "from [1, 2] | delay 100ms", build: Build.delay, infer: Infer.same),
        entry("debounce", .operator, [[p("D", .duration)]],
              summary: "emits a value only after D of silence", combine: ".debounce(for:scheduler:)",
              example: "interval 50ms | take 5 | append (timer 400ms | ignoreOutput) | debounce 100ms", build: Build.debounce, infer: Infer.same),
        entry("throttle", .operator, [[p("D", .duration), p("BOOL", .bool, label: "latest", optional: true)]],
              summary: "emits at most one value per interval D (the first, or the latest with latest: true)",
              combine: ".throttle(for:scheduler:latest:)", example: "interval 30ms | take 10 | throttle 100ms latest: true",
              build: Build.throttle, infer: Infer.same),
        entry("timeout", .operator, [[p("D", .duration)]],
              summary: "fails if upstream is silent for D", combine: ".timeout(_:scheduler:customError:)",
              example: "never | timeout 100ms", build: Build.timeout, infer: Infer.alwaysFails),
        entry("measureInterval", .operator, [[]],
              summary: "emits the time since the previous value, in milliseconds", combine: ".measureInterval(using:)",
              example: "interval 100ms | take 3 | measureInterval", build: Build.measureInterval, infer: Infer.fixedKeepFailure(.double)),
        entry("buffer", .operator, [[p("SIZE", .positive)]],
              summary: "buffers up to SIZE values ahead of demand", combine: ".buffer(size:prefetch:whenFull:)",
              example: "from 1...5 | buffer 2", build: Build.buffer, infer: Infer.same),
        entry("receiveOn", aliases: ["receive"], .operator, [[]],
              summary: "delivers downstream on the runtime's scheduler", combine: ".receive(on:)",
              example: "just 1 | receiveOn", build: Build.receiveOn, infer: Infer.same),
        entry("subscribeOn", .operator, [[]],
              summary: "subscribes upstream on the runtime's scheduler", combine: ".subscribe(on:)",
              example: "just 1 | subscribeOn", build: Build.subscribeOn, infer: Infer.same),
        entry("asyncMap", .operator, [[p("STEP", .step)]],
              summary: "runs an async step per value: delay D, delay D { expr }, flaky N, fail \"message\" or { expr }",
              combine: ".asyncMap { value in try await … } (this repository's bridge)", example: "just 1 | asyncMap delay 100",
              build: Build.asyncMap, infer: Infer.asyncStep),
    ]

    static let terminals: [CatalogEntry] = [
        entry("sink", .terminal, [[]],
              summary: "subscribes and prints every event (implied when a pipeline has no terminal)",
              combine: ".sink(receiveCompletion:receiveValue:)", example: "just 1 | sink", build: nil, infer: Infer.same),
        entry("values", .terminal, [[]],
              summary: "consumes through `for try await value in publisher.values`", combine: ".values",
              example: "from 1...3 | values", build: nil, infer: Infer.same),
        entry("async", .terminal, [[]],
              summary: "awaits the first value with `try await publisher.async()`", combine: "try await publisher.async()",
              example: "just 1 | asyncMap delay 100 | async", build: nil, infer: Infer.same),
    ]
}
