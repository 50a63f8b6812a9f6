// swift-format-ignore-file
// The articles' swift blocks must appear here verbatim (the test below looks for each one), so the
// formatter leaves this file alone.
import Foundation
import Reactive
import ReactiveTestSupport
import Testing

// Every code example of the DocC articles (Sources/Reactive/Reactive.docc), run, with the output
// the article claims. `articlesQuoteThisFile` checks that each ```swift block of an article
// appears here line for line, so an article cannot show code that is not compiled and run.
//
// The examples call `print`; each test shadows it with a local function that records the lines,
// so the article's `// prints …` comments are checked by `#expect`.

/// The lines an example printed, in order.
final class Printout: Sendable {
    private let recorded = Lock<[String]>([])

    /// Records one `print` call: its items joined by spaces, as `Swift.print` writes them.
    func record(_ items: [Any]) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        recorded.withLock { $0.append(line) }
    }

    var lines: [String] { recorded.withLock { $0 } }

    /// Waits (polling, with a watchdog that counts looks: `waitUntil`) until `count` lines were
    /// printed by another thread.
    func waitFor(_ count: Int) async throws {
        _ = await waitUntil(looks: 15_000, every: .milliseconds(2)) { lines.count >= count }
    }
}

// MARK: - Types the articles declare

// ComingFromCombine.md
final class TemperatureModel: ObservableObject {
    @Published var celsius = 20.0
}

// ComingFromCombine.md
final class Screen {
    var title = ""
}

// BridgingAsyncAwait.md
struct Thermometer: Sendable {
    func reading(at station: String) async -> Double {
        await Task.yield()  // stands for real async work
        return station == "north" ? 4.5 : 12.0
    }
}

// BridgingAsyncAwait.md
enum LookupError: Error {
    case unknownStation(String)
}

struct StationDirectory: Sendable {
    func name(of id: Int) async throws -> String {
        guard id < 3 else { throw LookupError.unknownStation("#\(id)") }
        return ["Harbour", "Ridge", "Airport"][id]
    }
}

// BridgingAsyncAwait.md
enum LinkError: Error {
    case timedOut
}

actor FlakyLink {
    private(set) var attempts = 0

    func connect() async throws -> Bool {
        attempts += 1
        if attempts < 3 { throw LinkError.timedOut }
        return true
    }
}

// BridgingAsyncAwait.md
struct SettingsStore: Sendable {
    func load() async throws -> [String: String] {
        ["theme": "dark"]
    }

    // The old API keeps its signature; the work behind it is async now.
    func load(completion: @escaping @Sendable (Result<[String: String], any Error>) -> Void) {
        Task(operation: { try await load() }, queue: .global(), completion: completion)
    }
}

// BridgingAsyncAwait.md
final class Pedometer {
    var onStep: ((Int) -> Void)?
    private(set) var isCounting = false

    func start() { isCounting = true }
    func stop() { isCounting = false }
}

func steps(from pedometer: Pedometer) -> AnyPublisher<Int, Never> {
    let subject = PassthroughSubject<Int, Never>()
    pedometer.onStep = { subject.send($0) }
    return subject
        .handleEvents(
            receiveSubscription: { _ in pedometer.start() },
            receiveCancel: { pedometer.stop() }
        )
        .eraseToAnyPublisher()
}

// MARK: - Reactive.md

@Suite("Doc examples: the landing page")
struct LandingPageExamples {
    @Test("the first example prints running totals and drops negative readings")
    func firstExample() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        var cancellables = Set<AnyCancellable>()
        let readings = PassthroughSubject<Int, Never>()

        readings
            .filter { $0 >= 0 }  // drop sensor glitches
            .scan(0, +)  // a running total
            .sink { print("total", $0) }
            .store(in: &cancellables)

        readings.send(3)  // total 3
        readings.send(-1)  // (dropped)
        readings.send(4)  // total 7
        readings.send(completion: .finished)

        #expect(out.lines == ["total 3", "total 7"])
    }
}

// MARK: - ComingFromCombine.md

@Suite("Doc examples: Coming from Combine")
struct ComingFromCombineExamples {
    @Test("@Published and objectWillChange read as in Combine: will change, then the new value")
    func publishedModel() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let model = TemperatureModel()
        var bag = Set<AnyCancellable>()
        model.objectWillChange
            .sink { print("will change, still \(model.celsius)") }
            .store(in: &bag)
        model.$celsius
            .map { "\($0 * 9 / 5 + 32) °F" }
            .sink { print($0) }
            .store(in: &bag)

        model.celsius = 25
        // 68.0 °F
        // will change, still 20.0
        // 77.0 °F

        #expect(out.lines == ["68.0 °F", "will change, still 20.0", "77.0 °F"])
    }

    @Test("C07: a negative demand is none, and request(.none) adds nothing")
    func misuse() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let demand = Subscribers.Demand.max(-1)  // Combine stops the process here
        print(demand)  // max(0)
        print(demand + 2)  // max(2)

        #expect(out.lines == ["max(0)", "max(2)"])
    }

    @Test("C08: a subscriber that asked for two values gets two")
    func neverMoreThanDemanded() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let twoPlease = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: { print("got", $0); return .none },
            receiveCompletion: { print("completion", $0) }
        )
        (1...10).publisher.map { $0 * 10 }.subscribe(twoPlease)
        // got 10
        // got 20    (nothing more, and no completion: the sequence has more)

        #expect(out.lines == ["got 10", "got 20"])
    }

    @Test("C17: a finished pipeline releases what its closures captured, without a cancel")
    func releaseAtTermination() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        var screen: Screen? = Screen()
        weak let weakScreen = screen
        let titles = PassthroughSubject<String, Never>()
        let subscription = titles.sink { [screen] in screen?.title = $0 }
        screen = nil
        print(weakScreen == nil)  // false: the sink's closure holds the screen
        titles.send(completion: .finished)
        print(weakScreen == nil)  // true: finished, so the closure is gone
        _ = subscription  // … although the AnyCancellable is still alive

        #expect(out.lines == ["false", "true"])
    }

    @Test("C05: nothing arrives after a cancel, not even a completion already scheduled")
    func nothingAfterCancel() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let delayed = subject
            .delay(for: .seconds(1), scheduler: scheduler)
            .sink(receiveCompletion: { print("completion", $0) }, receiveValue: { print("value", $0) })
        subject.send(1)
        subject.send(completion: .finished)
        delayed.cancel()
        scheduler.advance(by: .seconds(2))
        // prints nothing: the value and the completion were still scheduled at the cancel

        #expect(out.lines == [])
    }

    @Test("C22: a send from inside a subscriber is delivered after the running delivery returns")
    func reentrantSend() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let subject = PassthroughSubject<Int, Never>()
        let echo = subject.sink { value in
            print("begin", value)
            if value == 1 { subject.send(2) }
            print("end", value)
        }
        subject.send(1)
        // begin 1
        // end 1
        // begin 2
        // end 2
        echo.cancel()

        #expect(out.lines == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    @Test("streaming instead of Publishers.Sequence's eager map and filter: lazy first, or erased")
    func streamingInsteadOfEager() {
        let n = 6
        let f = { (x: Int) in x * 3 }
        let g = { (x: Int) in x % 2 == 0 }

        // Lazy before the publisher: each value is computed when it is demanded.
        let streamed = (1...n).lazy.map(f).filter(g).publisher
        // Or erase first: the operators are the streaming ones, one indirect call per value.
        let erased = (1...n).publisher.eraseToAnyPublisher().map(f).filter(g)

        var values: [[Int]] = [[], []]
        _ = streamed.sink { values[0].append($0) }
        _ = erased.sink { values[1].append($0) }
        #expect(values == [[6, 12, 18], [6, 12, 18]])
    }
}

// MARK: - BridgingAsyncAwait.md

@Suite("Doc examples: Bridging async/await")
struct BridgingAsyncAwaitExamples {
    @Test("asyncMap with a non-throwing async function keeps Failure == Never and the order")
    func asyncMapNonThrowing() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let thermometer = Thermometer()
        let readings = try await ["north", "south"].publisher
            .asyncMap { station in await thermometer.reading(at: station) }
            .collect()
            .async()
        print(readings)  // [4.5, 12.0]

        #expect(out.lines == ["[4.5, 12.0]"])
    }

    @Test("asyncMap with a throwing function on a failing pipeline: values, then the error")
    func asyncMapThrowing() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let directory = StationDirectory()
        let names = [0, 1, 7].publisher
            .setFailureType(to: (any Error).self)  // an upstream that can fail, like a request
            .asyncMap { id in try await directory.name(of: id) }

        var received: [String] = []
        do {
            for try await name in names.values { received.append(name) }
        } catch {
            print("failed:", error)  // failed: unknownStation("#7")
        }
        print(received)  // ["Harbour", "Ridge"]

        #expect(out.lines == [##"failed: unknownStation("#7")"##, #"["Harbour", "Ridge"]"#])
    }

    @Test("asyncMap with a throwing function on a pipeline that cannot fail: Failure becomes any Error")
    func asyncMapThrowingInNeverPipeline() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }
        let directory = StationDirectory()

        let checked = Just(5)  // Failure == Never
            .asyncMap { id in try await directory.name(of: id) }  // Failure == any Error
        do {
            _ = try await checked.async()
        } catch LookupError.unknownStation(let id) {
            print("no station", id)  // no station #5
        }

        #expect(out.lines == ["no station #5"])
    }

    @Test("async() returns the first value, and throws when the publisher finishes without one")
    func firstValue() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let first = try await [3, 1, 4].publisher.async()
        print(first)  // 3 (and the subscription is cancelled)
        do {
            _ = try await Empty<Int, Never>().async()
        } catch AsyncError.finishedWithoutValue {
            print("finished without a value")  // no hang, no crash
        }

        #expect(out.lines == ["3", "finished without a value"])
    }

    @Test("a Future made from async work starts at once; value awaits its result")
    func futureWithAsyncWork() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }
        let directory = StationDirectory()

        let station = Future { try await directory.name(of: 1) }  // the work starts now
        print(try await station.value)  // Ridge

        #expect(out.lines == ["Ridge"])
    }

    @Test("Deferred { Future } runs the work per subscription, so retry retries it; a bare Future does not")
    func deferredFutureRetry() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let link = FlakyLink()
        let connected = Deferred { Future { try await link.connect() } }  // one attempt per subscription
            .retry(3)
            .replaceError(with: false)
        print(try await connected.async())  // true
        print(await link.attempts)  // 3

        let eager = FlakyLink()
        let once = Future { try await eager.connect() }  // one attempt, now; retry gets its failure again
            .retry(3)
            .replaceError(with: false)
        print(try await once.async())  // false
        print(await eager.attempts)  // 1

        #expect(out.lines == ["true", "3", "false", "1"])
    }

    @Test("values: one value per next(); leaving the loop cancels the subscription")
    func valuesBreakCancels() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let numbers = (1...).publisher
            .handleEvents(receiveCancel: { print("upstream cancelled") })
        var firstThree: [Int] = []
        for await n in numbers.values {
            firstThree.append(n)
            if firstThree.count == 3 { break }  // leaving the loop cancels the subscription
        }
        print(firstThree)  // upstream cancelled, then [1, 2, 3]

        #expect(out.lines == ["upstream cancelled", "[1, 2, 3]"])
    }

    @Test("values: cancelling the consuming task ends the loop and cancels upstream")
    func valuesTaskCancellation() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let updates = PassthroughSubject<String, Never>()
        let listener = Task {
            var seen: [String] = []
            let stream = updates.handleEvents(receiveCancel: { print("stopped listening") })
            for await update in stream.values { seen.append(update) }
            return seen  // the loop ends when the task is cancelled
        }
        listener.cancel()
        print(await listener.value)  // stopped listening, then []

        #expect(out.lines == ["stopped listening", "[]"])
    }

    @Test("Task(operation:queue:completion:) keeps a completion-handler API over async work")
    func completionHandler() async throws {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let store = SettingsStore()
        store.load { result in
            print(try! result.get())  // ["theme": "dark"]
        }

        try await out.waitFor(1)
        #expect(out.lines == [#"["theme": "dark"]"#])
    }

    @Test("a callback API as a publisher: handleEvents starts and stops it with the subscription")
    func handleEventsLifecycle() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let pedometer = Pedometer()
        let counting = Just(true)  // stands for a permission request
            .flatMap { allowed in allowed ? steps(from: pedometer) : Empty<Int, Never>().eraseToAnyPublisher() }
            .sink { print("steps:", $0) }
        print(pedometer.isCounting)  // true
        pedometer.onStep?(42)  // steps: 42
        counting.cancel()
        print(pedometer.isCounting)  // false

        #expect(out.lines == ["true", "steps: 42", "false"])
    }
}

// MARK: - TestingWithVirtualTime.md

@Suite("Doc examples: Testing with virtual time")
struct TestingWithVirtualTimeExamples {
    @Test("delay on virtual time: nothing until the clock is moved past the delay")
    func delayAdvance() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let reminder = Just("stretch")
            .delay(for: .seconds(30), scheduler: scheduler)
            .sink { print(scheduler.now, $0) }
        scheduler.advance(by: .seconds(29))  // nothing yet
        print(scheduler.nextDeadline!)  // 30s: when the next action is due
        scheduler.advance(by: .seconds(1))  // 30s stretch
        reminder.cancel()

        #expect(out.lines == ["30s", "30s stretch"])
    }

    @Test("debounce delivers the last value of a burst once the input is quiet")
    func debounce() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let typed = PassthroughSubject<String, Never>()
        let search = typed
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { print(scheduler.now, $0) }

        typed.send("s")
        scheduler.advance(by: .milliseconds(100))
        typed.send("sw")
        scheduler.advance(by: .milliseconds(100))
        typed.send("swi")  // at 200ms
        scheduler.advance(by: .milliseconds(500))  // 500ms swi
        typed.send("swift")  // at 700ms
        scheduler.advance(to: .init(nanoseconds: 1_000_000_000))  // 1s swift
        search.cancel()

        #expect(out.lines == ["500ms swi", "1s swift"])
    }

    @Test("debounce on completion: a value still waiting is dropped, the completion is not delayed")
    func debounceCompletion() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let typed = PassthroughSubject<String, Never>()
        let search = typed
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink(receiveCompletion: { print(scheduler.now, $0) }, receiveValue: { print(scheduler.now, $0) })
        typed.send("swift")
        typed.send(completion: .finished)
        scheduler.advance(by: .seconds(1))  // 0s finished ("swift" was still waiting: dropped)
        search.cancel()

        #expect(out.lines == ["0s finished"])
    }

    @Test("throttle: the first value at once, then the latest (or the first) of each interval")
    func throttle() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let taps = PassthroughSubject<Int, Never>()
        let latest = taps
            .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
            .sink { print("latest", scheduler.now, $0) }
        let first = taps
            .throttle(for: .seconds(1), scheduler: scheduler, latest: false)
            .sink { print("first", scheduler.now, $0) }

        for tap in 1...4 {  // taps at 0, 300, 600 and 900ms
            taps.send(tap)
            scheduler.advance(by: .milliseconds(300))
        }
        scheduler.run()
        // latest 0s 1
        // first 0s 1
        // latest 1s 4
        // first 1s 2
        latest.cancel()
        first.cancel()

        #expect(out.lines == ["latest 0s 1", "first 0s 1", "latest 1s 4", "first 1s 2"])
    }

    @Test("async steps on virtual time: a ManualTaskExecutor, a VirtualClock and run(draining:)")
    func asyncOnVirtualTime() {
        let out = Printout()
        @Sendable func print(_ items: Any...) { out.record(items) }

        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)

        var arrivals: [String] = []
        let lookups = ["a", "b"].publisher
            .asyncMap(executorPreference: executor) { id in
                try? await clock.sleep(for: .seconds(2))  // a slow service, on virtual time
                return id.uppercased()
            }
            .sink { arrivals.append("\(scheduler.now) \($0)") }
        scheduler.run(draining: executor) { arrivals.count == 2 }
        print(arrivals)  // ["2s A", "4s B"]
        lookups.cancel()

        #expect(out.lines == [#"["2s A", "4s B"]"#])
    }
}

// MARK: - The articles quote this file

@Suite("Doc examples: the articles")
struct DocArticleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("Sources/Reactive/Reactive.docc")

    /// The ```swift blocks of `text`, each as its trimmed, non-empty lines, without `import` lines.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil, !trimmed.isEmpty, !trimmed.hasPrefix("import ") {
                current!.append(normalized(trimmed))
            }
        }
        return blocks
    }

    /// A line with runs of spaces before a `//` comment collapsed, so alignment in an article
    /// and `swift format`'s two spaces in this file compare equal.
    static func normalized(_ line: String) -> String {
        guard let comment = line.range(of: "//") else { return line }
        let code = line[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
        return code.isEmpty ? String(line[comment.lowerBound...]) : code + "  " + line[comment.lowerBound...]
    }

    /// Every page of the catalog, listed from the folder: a new article is checked without
    /// being named here.
    static let articles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted()
    }()

    @Test("the catalog's pages are found: the landing page, the articles and Publisher's extension page")
    func articlesAreListed() {
        #expect(Self.articles.count >= 5, "\(Self.articles)")
        for page in ["Reactive.md", "ComingFromCombine.md", "BridgingAsyncAwait.md", "TestingWithVirtualTime.md", "Publisher.md"] {
            #expect(Self.articles.contains(page), "\(page) is not in \(Self.catalog.path)")
        }
    }

    @Test("every swift block of every article appears in DocExamplesTests.swift", arguments: articles)
    func articlesQuoteThisFile(article: String) throws {
        let text = try String(contentsOf: Self.catalog.appendingPathComponent(article), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = source.split(separator: "\n").map { Self.normalized($0.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.isEmpty }
        let blocks = Self.swiftBlocks(in: text)
        // An article (a page not titled with a symbol, as Publisher.md's ``Reactive/Publisher`` is)
        // teaches with code: it has at least one block.
        let extendsASymbol = text.hasPrefix("# ``") && !text.hasPrefix("# ``Reactive``")
        #expect(!blocks.isEmpty || extendsASymbol, "\(article) has no swift block")
        for block in blocks where !block.isEmpty {
            let found = sourceLines.indices.contains { start in
                start + block.count <= sourceLines.count
                    && Array(sourceLines[start..<start + block.count]) == block
            }
            #expect(found, "\(article): this block is not in DocExamplesTests.swift:\n\(block.joined(separator: "\n"))")
        }
    }
}
