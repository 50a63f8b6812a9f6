import Testing
@testable import PipeLanguage

/// Issue 39, the foundation of the async half: `values` and `stream` cross from publishers to
/// async sequences and `publisher` crosses back; a stage name resolves to its twin on the side it
/// stands on; the async stages run on ReactiveAsync with the runtime's clock, so on the virtual
/// clock their events have exact times on one timeline with the publisher stages.
@Suite struct CrossingTests {
    static func f(_ events: String...) -> [String] { ["0 subscribed"] + events }

    /// The checked stages of a one-pipeline text: name and side.
    static func sides(_ text: String) throws -> [String] {
        let (statements, diagnostics) = Session(runtime: Runtime(clock: .virtual)).compile(text, file: "t")
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.map(\.description))")
        let checked = try #require(statements.first?.checked)
        return checked.stages.map { "\($0.stage.name):\($0.side == .async ? "async" : "publisher")" }
    }

    // MARK: crossing

    @Test("stages after values are async sequence stages, run with exact virtual times")
    func crossing() throws {
        #expect(try Self.sides("just 1 | values | map { $0 + 1 }") == ["just:publisher", "values:async", "map:async"])
        #expect(run("just 1 | values | map { $0 + 1 }") == Self.f("0 value 2", "0 finished"))
        // One timeline: the interval's ticks (Combine, on the scheduler) keep their times through
        // the async map and filter.
        #expect(
            run("interval 100ms | take 3 | values | map { $0 * 10 } | filter { $0 > 0 }")
                == Self.f("200 value 10", "300 value 20", "300 finished"))
    }

    @Test("publisher crosses back: the stages after it are publishers again")
    func crossingBack() throws {
        #expect(
            try Self.sides("just 1 | values | debounce 200ms | publisher | retry 2")
                == ["just:publisher", "values:async", "debounce:async", "publisher:publisher", "retry:publisher"])
        #expect(run("just 1 | values | debounce 200ms | publisher | retry 2") == Self.f("0 value 1", "0 finished"))
        #expect(run("from [1, 2] | values | map { $0 + 1 } | publisher | scan 0 { $0 + $1 }") == Self.f("0 value 2", "0 value 5", "0 finished"))
    }

    @Test("values last on a publisher is still the terminal: for try await, one next event per value")
    func valuesStillEnds() throws {
        #expect(try Self.sides("from 1...3 | values") == ["from:publisher"])
        #expect(run("from 1...3 | values") == Self.f("0 next 1", "0 next 2", "0 next 3", "0 finished"))
    }

    /// `timer every` sleeps one deadline at a time (no repeating action on the scheduler): it ran
    /// without end on the virtual clock until the runtime counted it as an endless source.
    @Test(
        "a pipeline that never ends on the async side is stopped by the virtual horizon",
        .hangLimit, arguments: ["interval 100ms | values | map { $0 }", "timer every 100ms | map { $0 }"])
    func horizon(text: String) {
        let runtime = Runtime(clock: .virtual)
        let session = Session(runtime: runtime)
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.isEmpty)
        guard let statement = statements.first, case .success(.run(let pipeline)) = session.execute(statement) else {
            Issue.record("not a pipeline")
            return
        }
        let recorder = Recorder()
        let c = pipeline.start(trace: false) { event in recorder.events.withLock { $0.append(describe(event)) } }
        let stopped = runtime.driveVirtualTime(horizonNanoseconds: 1_000_000_000) { false }
        #expect(stopped)
        c.cancel()
        let values = recorder.events.withLock { $0 }.filter { $0.hasPrefix("value") }
        #expect(values.count == 10)
    }

    // MARK: one test per twin pair

    @Test("map after values is AsyncSequence.map")
    func mapTwin() throws {
        #expect(try Self.sides("from [1, 2, 3] | values | map { $0 * 10 }").last == "map:async")
        #expect(run("from [1, 2, 3] | values | map { $0 * 10 }") == Self.f("0 value 10", "0 value 20", "0 value 30", "0 finished"))
    }

    @Test("filter after values is AsyncSequence.filter")
    func filterTwin() throws {
        #expect(try Self.sides("from 1...6 | values | filter { $0 % 2 == 0 }").last == "filter:async")
        #expect(run("from 1...6 | values | filter { $0 % 2 == 0 }") == Self.f("0 value 2", "0 value 4", "0 value 6", "0 finished"))
    }

    @Test("compactMap after values is AsyncSequence.compactMap")
    func compactMapTwin() throws {
        #expect(try Self.sides("from [1, -1, 2] | values | compactMap { $0 > 0 ? $0 : nil }").last == "compactMap:async")
        #expect(run("from [1, -1, 2] | values | compactMap { $0 > 0 ? $0 : nil }") == Self.f("0 value 1", "0 value 2", "0 finished"))
    }

    @Test("removeDuplicates after values is swift-async-algorithms' removeDuplicates, with and without by:")
    func removeDuplicatesTwin() throws {
        #expect(try Self.sides("from [1, 1, 2, 2, 1] | values | removeDuplicates").last == "removeDuplicates:async")
        #expect(run("from [1, 1, 2, 2, 1] | values | removeDuplicates") == Self.f("0 value 1", "0 value 2", "0 value 1", "0 finished"))
        #expect(
            run("from [1, 2, 4, 5] | values | removeDuplicates by: { $1 - $0 == 1 }") == Self.f("0 value 1", "0 value 4", "0 finished"))
    }

    @Test("debounce after values is the async debounce, on the virtual clock")
    func debounceTwin() throws {
        let text = "interval 100ms | take 3 | append (timer 400ms | ignoreOutput) | values | debounce 150ms"
        #expect(try Self.sides(text).last == "debounce:async")
        // 2 arrives at 300 ms and nothing follows: out 150 ms later; the base ends at 700 ms.
        #expect(run(text) == Self.f("450 value 2", "700 finished"))
    }

    /// The difference the issue names: swift-async-algorithms' Debounce guide (and
    /// `AsyncDebounceSequence`'s documentation here: "When the base finishes, the pending element
    /// (if any) is emitted at once") against Combine's debounce, which drops the pending value and
    /// delivers the completion (`Reactive/Operators/Debounce/Debounce.swift`, "dropped"). Listed
    /// with the entry as its documented difference (`:help debounce`).
    @Test("the async debounce emits its pending element when the base finishes; Combine's drops it")
    func debouncePendingAtFinish() throws {
        #expect(run("interval 100ms | take 3 | debounce 150ms") == Self.f("300 finished"))
        #expect(run("interval 100ms | take 3 | values | debounce 150ms") == Self.f("300 value 2", "300 finished"))
        let entry = try #require(Catalog.entry(named: "debounce"))
        #expect(entry.asyncDifference?.contains("pending element") == true)
    }

    @Test("throttle after values is the async throttle, pulled by the consumer")
    func throttleTwin() throws {
        #expect(try Self.sides("interval 100ms | take 3 | values | throttle 250ms").last == "throttle:async")
        #expect(run("interval 100ms | take 3 | values | throttle 250ms") == Self.f("100 value 0", "350 value 1", "350 finished"))
    }

    @Test("merge after values is swift-async-algorithms' merge, its argument crossed with values")
    func mergeTwin() throws {
        let text = "interval 100ms | take 2 | values | merge (interval 150ms | take 2)"
        #expect(try Self.sides(text).last == "merge:async")
        #expect(run(text) == Self.f("100 value 0", "150 value 0", "200 value 1", "300 value 1", "300 finished"))
    }

    @Test("zip after values is swift-async-algorithms' zip, as [a, b]")
    func zipTwin() throws {
        #expect(try Self.sides("from [1, 2] | values | zip (from [\"a\", \"b\"])").last == "zip:async")
        #expect(run("from [1, 2] | values | zip (from [\"a\", \"b\"])") == Self.f("0 value [1, \"a\"]", "0 value [2, \"b\"]", "0 finished"))
    }

    @Test("combineLatest after values is swift-async-algorithms' combineLatest, as [a, b]")
    func combineLatestTwin() throws {
        let text = "interval 100ms | take 3 | values | combineLatest (interval 150ms | take 2)"
        #expect(try Self.sides(text).last == "combineLatest:async")
        #expect(
            run(text) == Self.f("150 value [0, 0]", "200 value [1, 0]", "300 value [1, 1]", "300 value [2, 1]", "300 finished"))
    }

    @Test("chunks is collect's twin, on the async side only")
    func chunksTwin() throws {
        #expect(run("from 1...5 | collect 2") == Self.f("0 value [1, 2]", "0 value [3, 4]", "0 value [5]", "0 finished"))
        #expect(run("from 1...5 | values | chunks 2") == Self.f("0 value [1, 2]", "0 value [3, 4]", "0 value [5]", "0 finished"))
        #expect(Catalog.entry(named: "chunks")?.sides == [.async])
    }

    @Test("adjacentPairs is an async sequence's operator only")
    func adjacentPairsAsyncOnly() throws {
        #expect(run("from [1, 2, 3] | values | adjacentPairs") == Self.f("0 value [1, 2]", "0 value [2, 3]", "0 finished"))
        #expect(Catalog.entry(named: "adjacentPairs")?.sides == [.async])
    }

    @Test("every entry with an async twin names its Swift form; the crossings stand on the side they leave")
    func twinsNamed() {
        for name in ["map", "filter", "compactMap", "removeDuplicates", "debounce", "throttle", "merge", "zip", "combineLatest"] {
            let entry = Catalog.entry(named: name)
            #expect(entry?.sides == [.publisher, .async], "\(name)")
            #expect(entry?.asyncSwift?.isEmpty == false, "\(name)")
        }
        #expect(Catalog.entry(named: "retry")?.sides == [.publisher])
        #expect(Catalog.entry(named: "values")?.sides == [.publisher])
        #expect(Catalog.entry(named: "stream")?.sides == [.publisher])
        #expect(Catalog.entry(named: "publisher")?.sides == [.async])
    }

    // MARK: stream

    @Test("stream is article 002's bridge: a sink that asks for everything, buffered without bound by default")
    func stream() {
        #expect(run("from 1...3 | stream | map { $0 * 2 }") == Self.f("0 value 2", "0 value 4", "0 value 6", "0 finished"))
        // A synchronous source sends everything before the first next(): newest 1 keeps the last,
        // oldest 2 the first two; values asks for one at a time and loses none.
        #expect(run("from 1...5 | stream newest 1") == Self.f("0 value 5", "0 finished"))
        #expect(run("from 1...5 | stream oldest 2") == Self.f("0 value 1", "0 value 2", "0 finished"))
        #expect(run("from 1...5 | values | map { $0 }").count == 7)
    }

    // MARK: static errors

    /// The one error of `marked`, at its marker, with its id; returns the text its first fix-it makes.
    static func error(_ marked: String, _ id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String? {
        let (text, line, column) = unmark(marked)
        let errors = diagnose(text).filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors.map(\.description))", sourceLocation: sourceLocation)
        guard let e = errors.first else { return nil }
        #expect(e.id.code == id, sourceLocation: sourceLocation)
        #expect(e.location.line == line && e.location.column == column, "\(e.location)", sourceLocation: sourceLocation)
        return e.fixIts.first.map { $0.applied(to: text) }
    }

    @Test("a publisher operator after values is E332, with a fix-it that crosses back")
    func noTwinOnAsyncSide() {
        #expect(Self.error("just 1 | values | map { $0 + 1 } | 1️⃣retry 2", "E332") == "just 1 | values | map { $0 + 1 } | publisher | retry 2")
        // Right after the crossing, crossing back would cross twice: the fix removes the crossing.
        #expect(Self.error("just 1 | values | 1️⃣retry 2", "E332") == "just 1 | retry 2")
        #expect(Self.error("just 1 | values | map { $0 } | 1️⃣scan 0 { $0 + $1 }", "E332") == "just 1 | values | map { $0 } | publisher | scan 0 { $0 + $1 }")
        #expect(diagnose("just 1 | values | retry 2").first?.message.contains("no form on an async sequence") == true)
    }

    @Test("an async-only operator on a publisher is E332, with a fix-it that crosses")
    func noTwinOnPublisherSide() {
        #expect(Self.error("from [1, 2] | 1️⃣adjacentPairs", "E332") == "from [1, 2] | values | adjacentPairs")
        #expect(Self.error("from [1, 2] | values | map { $0 } | publisher | 1️⃣chunks 2", "E332") == "from [1, 2] | values | map { $0 } | chunks 2")
    }

    @Test("crossing twice in a row, or to the side already taken, is E333, with a fix-it that removes the crossing")
    func crossingTwice() {
        #expect(Self.error("just 1 | values | 1️⃣publisher | map { $0 }", "E333") == "just 1 | values | map { $0 }")
        #expect(Self.error("just 1 | values | 1️⃣stream", "E333") == "just 1 | values")
        #expect(Self.error("just 1 | 1️⃣publisher", "E333") == "just 1")
        #expect(Self.error("just 1 | values | map { $0 } | 1️⃣values", "E333") == "just 1 | values | map { $0 }")
    }

    @Test("the fixed texts run")
    func fixesRun() {
        #expect(run("just 1 | values | map { $0 + 1 } | publisher | retry 2") == Self.f("0 value 2", "0 finished"))
        #expect(run("from [1, 2] | values | map { $0 } | chunks 2") == Self.f("0 value [1, 2]", "0 finished"))
    }
}
