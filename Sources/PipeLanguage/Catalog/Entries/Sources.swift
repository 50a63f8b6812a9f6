import ReactiveAsync
import Foundation

/// Sources: what starts a pipeline.
extension CatalogTable {
    static let sources: [CatalogEntry] = [
        CatalogEntry(
            "just", [[p("VALUE", .value)]],
            summary: "emits one value, then finishes", combine: "Just(_:)", example: "just 1",
            build: .source { b in Just(try b.value(0)).setFailureType(to: (any Error).self).valueStream() },
            infer: { Shape(kind: $0.constantKind(0), canFail: false) },
            swift: { b in
                let (text, kind) = b.expression(0)
                return SwiftCode("Just(\(text))", kind: kind, fails: false)
            }),
        CatalogEntry(
            "from", [[p("ARRAY-OR-RANGE", .sequence)]],
            summary: "emits each element of an array or range, then finishes", combine: "[…].publisher",
            example: "from [1, 2, 3]",
            build: .source { b in
                guard let a = b.argument(0), case .expr(let e) = a.value else { throw b.error(.wrongBuildArgument("from", "an array or a range")) }
                if case .range(let lo, let hi) = e.kind {
                    let compiler = ExpressionCompiler(source: b.source)
                    guard case .int(let x) = try compiler.compile(lo)(b.env), case .int(let y) = try compiler.compile(hi)(b.env) else {
                        throw b.error(.wrongBuildArgument("from", "a range of integers"))
                    }
                    if let problem = Ranges.problem(x, y, atRunTime: true) { throw b.error(problem) }
                    // A range streams lazily: `from 1...1000000` never builds an array.
                    return Publishers.Sequence<IntValues, any Error>(sequence: IntValues(range: x...y)).valueStream()
                }
                guard case .array(let items) = try b.value(0) else { throw b.error(.wrongBuildArgument("from", "an array or a range")) }
                return Publishers.Sequence<[Value], any Error>(sequence: items).valueStream()
            },
            infer: { input in
                guard case .expr(let e)? = input.arguments.first??.value else { return Shape(kind: .any, canFail: false) }
                if case .range = e.kind { return Shape(kind: .int, canFail: false) }
                if case .array(let k) = ExpressionKinds.infer(e, []).kind { return Shape(kind: k, canFail: false) }
                return Shape(kind: .any, canFail: false)
            },
            swift: { b in
                let (text, kind) = b.sequence(0)
                return SwiftCode("\(text).publisher", kind: kind, fails: false)
            }),
        CatalogEntry(
            "empty", [[]],
            summary: "finishes at once without a value", combine: "Empty()", example: "empty",
            build: .source { _ in Empty<Value, any Error>().valueStream() }, infer: Infer.fixed(.nothing, fails: false),
            swift: { b in SwiftCode("Empty<\(b.kind.swiftName), Never>()", kind: b.kind, fails: false) }),
        CatalogEntry(
            "never", [[]],
            summary: "never emits and never completes", combine: "Empty(completeImmediately: false)",
            example: "never | timeout 100ms",
            build: .source { _ in Empty<Value, any Error>(completeImmediately: false).valueStream() },
            infer: Infer.fixed(.nothing, fails: false),
            swift: { b in SwiftCode("Empty<\(b.kind.swiftName), Never>(completeImmediately: false)", kind: b.kind, fails: false) }),
        CatalogEntry(
            "fail", [[p("MESSAGE", .string)]],
            summary: "fails at once with a message", combine: "Fail(error:)", example: "fail \"boom\"",
            build: .source { b in
                // The user's own message: no id.
                Fail<Value, any Error>(error: PipelineError(message: try b.value(0).plainText, location: b.location)).valueStream()
            },
            infer: Infer.fixed(.nothing, fails: true),
            swift: { b in
                b.needs(.pipeError)
                return SwiftCode("Fail<\(b.kind.swiftName), Error>(error: PipeError(\(Value.quote(b.string(0)))))", kind: b.kind, fails: true)
            }),
        CatalogEntry(
            "interval", [[p("PERIOD", .period)]],
            summary: "emits 0, 1, 2, … every period",
            combine:
                "Publishers.interval(_:scheduler:) (an addition of this repository: not in Combine); Combine's nearest, Timer.publish(every:on:in:).autoconnect(), emits Dates from one timer shared by every subscriber",
            example: "interval 100ms | take 3",
            build: .source { b in
                let ns = try b.duration(0)
                guard ns > 0 else { throw b.error(.periodNotPositive) }
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    Publishers.interval(.nanoseconds(Int(ns)), scheduler: s).map(Value.int).setFailureType(to: (any Error).self).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: Infer.fixed(.int, fails: false),
            swift: { b in
                b.needs(.queue)
                return SwiftCode("Publishers.interval(\(b.duration(0)), scheduler: queue)", kind: .int, fails: false)
            }),
        CatalogEntry(
            "timer", [[p("DELAY", .duration)], [p("every", .keyword("every")), p("PERIOD", .period)]],
            summary:
                "emits 0 once after a delay, then finishes; timer every PERIOD is an async sequence ticking 0, 1, 2, … (swift-async-algorithms' AsyncTimerSequence)",
            combine:
                "Publishers.interval(_:scheduler:).prefix(1) (an addition of this repository: not in Combine); in Combine, Just(0).delay(for:scheduler:) emits the same",
            example: "timer every 100ms | take 3 | publisher | merge (timer 250ms)",
            build: .source { b in
                // `timer every` starts on the async side: the checker never builds it here.
                guard b.stage.overload == 0 else { throw PipelineError(.noFormOnSide("timer every", side: .publisher), location: b.location) }
                // One value (0) after the delay: the first tick of an interval.
                let ns = Swift.max(1, try b.duration(0))
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    Publishers.interval(.nanoseconds(Int(ns)), scheduler: s).prefix(1).map(Value.int).setFailureType(to: (any Error).self).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: Infer.fixed(.int, fails: false),
            swift: { b in
                b.needs(.queue)
                return SwiftCode("Publishers.interval(\(b.duration(0)), scheduler: queue)", kind: .int, fails: false).then(".prefix(1)")
            },
            async: AsyncForm(
                sequenceType: "AsyncTimerSequence",
                swift:
                    "AsyncTimerSequence.repeating(every:clock:) (swift-async-algorithms' AsyncTimerSequence; its elements are the clock's instants, counted 0, 1, 2, … here as interval's ticks are)",
                difference:
                    "the timer is pulled: it sleeps until its next deadline (the last one plus PERIOD) inside next(), so nothing ticks while nobody asks, and a consumer that was busy past a deadline gets that tick at once; interval pushes every tick on the scheduler whether or not anyone is ready",
                build: { b, _ in
                    let ns = try b.duration(1)
                    let runtime = b.context.runtime
                    return b.onClock(
                        { TimerTicks(timer: .repeating(every: .nanoseconds(ns), clock: $0), runtime: runtime).asyncValues() },
                        { TimerTicks(timer: .repeating(every: .nanoseconds(ns), clock: $0), runtime: runtime).asyncValues() })
                },
                translate: { b in
                    // The ticks counted as interval's are: zipped with 0, 1, 2, …
                    let timer = "AsyncTimerSequence.repeating(every: \(b.duration(1)))"
                    return SwiftCode("zip((0...).async, \(timer))", kind: .int, fails: false).then(".map { tick, _ in tick }")
                },
                startsOverload: 1)),
        CatalogEntry(
            "future", [[p("delay", .keyword("delay")), p("D", .duration), p("value", .keyword("value")), p("VALUE", .value)]],
            summary: "eager: starts at once and emits its value after the delay (every subscriber gets it)",
            combine: "Future { promise in … }", example: "future delay 200 value 42",
            build: .source { b in try Hot.future(b).publisher }, infer: Infer.argumentKind(3), hot: Hot.future,
            swift: { b in
                b.needs(.queue)
                let (value, kind) = b.expression(3)
                let fulfil = "queue.asyncAfter(deadline: .now() + \(b.duration(1))) { promise(.success(\(value))) }"
                return SwiftCode("Future<\(kind.swiftName), Never> { promise in \(fulfil) }", kind: kind, fails: false)
            }),
        CatalogEntry(
            "deferred", [[p("pipeline", .pipelineClosure(.none))]],
            summary: "lazy: builds its pipeline anew for each subscriber", combine: "Deferred { … }",
            example: "deferred { future delay 200 value 42 }",
            build: .source { b in
                let factory = try b.pipelineFactory(0)
                return Deferred { factory(.null) }.valueStream()
            },
            infer: Infer.nestedPipeline(0),
            swift: { b in
                let (closure, inner) = b.pipelineClosure(0, parameter: "", kind: .any)
                return SwiftCode("Deferred \(closure)", kind: inner.kind, fails: inner.fails, pair: inner.pair)
            }),
        CatalogEntry(
            "marble",
            [
                [
                    p("\"-a-b-|\"", .string), p("D", .period, label: "frame", optional: true, labelRequired: true),
                    p("MESSAGE", .string, label: "error", optional: true, labelRequired: true),
                ]
            ],
            summary: "emits as a marble string says, one frame (default 100ms) per character: - a 1 'text' (ab) | #",
            combine:
                "marble(_:frame:), a helper :swift writes (an addition of this repository: not in Combine); a test scheduler's cold publisher in RxJS terms",
            example: "marble \"-a-(bc)-|\"",
            build: .source { b in
                guard case .success(let frames) = MarbleNotation.parse(try b.value(0).plainText) else {
                    throw b.error(.wrongBuildArgument("marble", "a marble string"))
                }
                let frame = b.argument(1) == nil ? Marbles.defaultFrame : try b.duration(1)
                let failure = PipelineError(message: b.argument(2) == nil ? "marble error" : try b.value(2).plainText, location: b.location)
                return Marbles.publisher(frames, frame: frame, failure: failure, runtime: b.context.runtime)
            },
            infer: { input in
                guard case .success(let frames)? = input.stringConstant(0).map(MarbleNotation.parse) else { return Shape(kind: .any, canFail: true) }
                let tokens = frames.joined()
                let kinds = tokens.compactMap { token -> ValueKind? in if case .value(let v) = token { ValueKind.of(v) } else { nil } }
                return Shape(kind: kinds.isEmpty ? .nothing : ValueKind.common(kinds), canFail: tokens.contains(.failed))
            },
            validate: { input in
                guard let literal = input.stringLiteral(0) else { return [] }
                switch MarbleNotation.parse(literal.text) {
                case .success: return []
                case .failure(let problem):
                    let span = literal.exact ? Span(literal.contents.offset + problem.offset, problem.length) : literal.contents
                    return [(.invalidMarble(problem.reason), span)]
                }
            },
            swift: { b in
                // Combine has no marble source: a helper plays the frames on the queue.
                guard case .success(let frames) = MarbleNotation.parse(b.string(0)), let frame = b.has(1) ? b.nanoseconds(1) : Marbles.defaultFrame else {
                    return b.unfaithful("the marble string or its frame is not a constant")
                }
                b.needs(.marble)
                let failure = Value.quote(b.has(2) ? b.string(2) : "marble error")
                let events = frames.map { tokens in
                    "["
                        + tokens.map { token in
                            switch token {
                            case .value(let v): ".value(\(SwiftExpressions.literal(v)))"
                            case .finished: ".finished"
                            case .failed: ".failed(\(failure))"
                            }
                        }.joined(separator: ", ") + "]"
                }
                let code = SwiftCode(
                    "marble([\(events.joined(separator: ", "))] as [[MarbleEvent<\(b.kind.swiftName)>]], frame: \(frame))", kind: b.kind, fails: true)
                // The helper's Failure is Error; a string with no `#` cannot fail, so say so in its type.
                return frames.joined().contains(.failed) ? code : code.then(".assertNoFailure()", fails: false)
            }),
        CatalogEntry(
            "todo", [[]],
            summary: "the workshop's placeholder: a stage, an argument or a closure body still to write; running it fails there",
            combine:
                ".tryMap { _ in throw … } (an addition of this repository: not in Combine); like fatalError(\"TODO\"), but a failure at its position, never a crash",
            example: "from [1, 2, 3] | todo",
            build: .source { b in Fail<Value, any Error>(error: b.error(.todo)).valueStream() },
            infer: Infer.anyFailing, anyPosition: true,
            swift: { b in
                // In Swift the placeholder is a failure at its place too, never a crash.
                b.needs(.pipeError)
                let failure = "PipeError(\"this is where your answer goes\")"
                if b.upstream.parts.isEmpty {
                    return SwiftCode("Fail<\(b.kind.swiftName), Error>(error: \(failure)) /* todo */", kind: b.kind, fails: true)
                }
                var code = b.upstream
                code.parts.append(".tryMap { _ -> \(b.upstream.kind.swiftName) in throw \(failure) } /* todo */")
                code.fails = true
                return code
            }),
        CatalogEntry(
            "subject", [[]],
            summary: "a hot source you send into with NAME.send VALUE (bind it with let)",
            combine: "PassthroughSubject<Value, Error>()",
            example: "let s = subject\ns.send 0\ns | map { $0 * 10 } &\ns.send 1\ns.send 2\ns.finish",
            build: .source { b in try Hot.subject(b).publisher }, infer: Infer.fixed(.any, fails: true),
            hot: Hot.subject, isSubject: true,
            swift: { b in
                let kind = b.translator.subjectKind()
                return SwiftCode("PassthroughSubject<\(kind.swiftName), Error>()", kind: kind, fails: true)
            }),
        CatalogEntry(
            "channel", [[]],
            summary:
                "an async source you send into with NAME.send VALUE, which waits until a reader takes the value; NAME.finish ends every reader (swift-async-algorithms' AsyncChannel; bind it with let)",
            combine:
                "AsyncChannel<Value>() (swift-async-algorithms' AsyncChannel, an AsyncSequence; Combine's nearest, PassthroughSubject, never waits in send)",
            // The reader is a job: a send waits until it takes the value.
            example: "let c = channel\nc | map { $0 * 10 } &\nc.send 1\nc.send 2\nc.finish",
            build: .source { b in
                // `channel` starts on the async side: the checker never builds it here.
                throw PipelineError(.noFormOnSide("channel", side: .publisher), location: b.location)
            },
            infer: Infer.fixed(.any, fails: false), hot: Hot.channel, isChannel: true,
            swift: { b in
                let kind = b.translator.subjectKind()
                return SwiftCode("AsyncChannel<\(kind.swiftName)>()", kind: kind, fails: false)
            },
            async: AsyncForm(
                sequenceType: "AsyncChannel",
                swift: "AsyncChannel<Value>() (swift-async-algorithms' AsyncChannel: send(_:) suspends until a consumer's next() takes the element)",
                difference:
                    "a channel's send waits until a reader takes the value (back pressure: one value in flight), and each value goes to one reader; a subject's send hands the value to every subscriber at once and never waits",
                build: { _, _ in
                    // Written without a binding nobody can send to it: a channel no one feeds.
                    ChannelBox().sequence
                },
                startsOverload: 0)),
        CatalogEntry(
            "currentValue", [[p("VALUE", .value)]],
            summary: "a subject that remembers its latest value and replays it to new subscribers",
            combine: "CurrentValueSubject<Value, Error>(_:)",
            // A late subscriber gets the latest value at once.
            example: "let c = currentValue 0\nc.send 5\nc | take 1",
            build: .source { b in try Hot.currentValue(b).publisher }, infer: Infer.anyFailing,
            hot: Hot.currentValue, isSubject: true,
            swift: { b in
                let (value, initial) = b.expression(0)
                let kind = b.translator.subjectKind(initial: initial)
                return SwiftCode("CurrentValueSubject<\(kind.swiftName), Error>(\(value))", kind: kind, fails: true)
            }),
    ]
}

/// `from 1...N`'s values, made as they are read; described as the range (`print` writes
/// `receive subscription: (1...3)`, as Combine does for `(1...3).publisher`).
struct IntValues: Sequence, CustomStringConvertible, Sendable {
    let range: ClosedRange<Int>
    var description: String { range.description }
    func makeIterator() -> LazyMapSequence<ClosedRange<Int>, Value>.Iterator { range.lazy.map(Value.int).makeIterator() }
}

/// Eager sources: made once per binding (or per run when used directly).
enum Hot {
    static let subject: HotBuilder = { _ in
        let s = PassthroughSubject<Value, any Error>()
        return HotSource(
            publisher: s.valueStream(), send: { s.send($0) },
            complete: { e in s.send(completion: e.map { .failure($0) } ?? .finished) })
    }

    static let currentValue: HotBuilder = { b in
        let s = CurrentValueSubject<Value, any Error>(try b.value(0))
        return HotSource(
            publisher: s.valueStream(), send: { s.send($0) },
            complete: { e in s.send(completion: e.map { .failure($0) } ?? .finished) })
    }

    /// `let c = channel`: one `AsyncChannel` every use of `c` reads; as a publisher (an argument,
    /// `merge (c)`) it is iterated by a task, as `publisher` crosses back.
    static let channel: HotBuilder = { b in
        let box = ChannelBox()
        let publisher = box.countingReaders(b.context.crossBack(box.sequence))
        return HotSource(publisher: publisher, send: nil, complete: { _ in box.finish() }, channel: box)
    }

    /// `future delay D value V`: starts now, fulfils after D on the runtime's scheduler.
    /// It says so when it starts (at creation: bound, or each time a `deferred` makes one) and
    /// when it is fulfilled, so a learner sees the eagerness without `:trace`.
    static let future: HotBuilder = { b in
        let ns = try b.duration(1)
        let value = try b.value(3)
        let context = b.context
        let stage = b.index
        let started = b.env.atRunTime ? OutputKind.futureStartedOnSubscription : OutputKind.futureStarted
        let f = Future<Value, any Error> { promise in
            // Where its notes go is decided as it starts: the fulfilment belongs there too.
            let report = context.reporter()
            report(.note, stage, started)
            context.runtime.schedule(afterNanoseconds: ns) {
                report(.note, stage, "future fulfilled with \(value) after \(Printer.duration(ns))")
                promise(.success(value))
            }
        }
        return HotSource(publisher: f.valueStream(), send: nil, complete: nil)
    }
}

/// `timer every PERIOD`: an `AsyncTimerSequence`'s ticks, counted 0, 1, 2, … as `interval`'s are.
struct TimerTicks<C: Clock & Sendable>: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = Never
    let timer: AsyncTimerSequence<C>
    /// Told that an endless source runs while an iterator lives: the virtual horizon stops it.
    let runtime: Runtime

    func makeAsyncIterator() -> Iterator { Iterator(base: timer.makeAsyncIterator(), endless: runtime.endlessSource()) }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncTimerSequence<C>.Iterator
        let endless: EndlessSources.Token
        var count = 0

        mutating func next() async -> Value? {
            guard await base.next() != nil else { return nil }
            defer { count += 1 }
            return .int(count)
        }
    }
}
