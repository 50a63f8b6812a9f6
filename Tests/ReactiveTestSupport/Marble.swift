import Reactive

// Marble diagrams for time-based tests on a `VirtualTimeScheduler`.
//
//     let result = marbles("-a-b-|", expected: "--A--B-|") { source, scheduler in
//         source.map { $0.uppercased() }.delay(for: .milliseconds(10), scheduler: scheduler)
//     }
//     #expect(result.passed, "\(result)")
//
// One character is one tick (10 ms unless told). Grammar, as in RxJS marble tests:
// `-` a tick with nothing; a letter or digit a value (its one-character string); `|` finished;
// `#` failure (`TestError("#")`); `(ab)` several events in one tick (the group takes one tick);
// spaces are ignored. Output is drawn the same way, from the times events arrived at.

/// One event of a marble diagram.
public enum MarbleEvent: Equatable, Sendable {
    case value(String)
    case finished
    case failure
}

/// Parses a marble diagram into events and the tick each happens at.
///
/// - Throws: nothing; unknown characters are values, an unclosed group ends the diagram.
public func parseMarbles(_ diagram: String) -> [(tick: Int, event: MarbleEvent)] {
    var events: [(tick: Int, event: MarbleEvent)] = []
    var tick = 0
    var inGroup = false
    func event(for character: Character) -> MarbleEvent {
        switch character {
        case "|": return .finished
        case "#": return .failure
        default: return .value(String(character))
        }
    }
    for character in diagram where character != " " {
        switch character {
        case "(", "[":
            inGroup = true
        case ")", "]":
            inGroup = false
            tick += 1
        case "-":
            if !inGroup { tick += 1 }
        default:
            events.append((tick, event(for: character)))
            if !inGroup { tick += 1 }
        }
    }
    return events
}

/// A cold publisher of a marble diagram on a `VirtualTimeScheduler`: each subscription replays
/// the diagram from its subscription time, one tick per character.
///
/// Each event is scheduled when the previous one has happened (so an operator's timer set
/// earlier for the same tick runs first). A value that finds no demand is dropped, as a hot
/// source would; tests of demand see it missing. Cancelling stops the diagram.
public struct MarblePublisher: Publisher, Sendable {
    public typealias Output = String
    public typealias Failure = TestError

    /// The events and their ticks.
    public let events: [MarbleEvent]
    let ticks: [Int]
    /// The scheduler the diagram runs on.
    public let scheduler: VirtualTimeScheduler
    /// The length of one tick.
    public let tick: VirtualTimeScheduler.SchedulerTimeType.Stride

    /// A publisher of `diagram` on `scheduler`.
    public init(_ diagram: String, scheduler: VirtualTimeScheduler, tick: VirtualTimeScheduler.SchedulerTimeType.Stride = .milliseconds(10)) {
        let parsed = parseMarbles(diagram)
        events = parsed.map(\.event)
        ticks = parsed.map(\.tick)
        self.scheduler = scheduler
        self.tick = tick
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == TestError {
        let subscription = MarbleSubscription(downstream: subscriber, publisher: self, start: scheduler.now)
        subscriber.receive(subscription: subscription)
        subscription.scheduleNext()
    }
}

/// Lets a scheduler action call back without capturing generic metatypes.
private protocol MarbleFiring: AnyObject, Sendable {
    func fire()
}

private final class MarbleSubscription<Downstream: Subscriber>: Subscription, MarbleFiring, @unchecked Sendable
where Downstream.Input == String, Downstream.Failure == TestError {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var index = 0
    private var timer: AnyCancellable?
    private let publisher: MarblePublisher
    private let start: VirtualTimeScheduler.SchedulerTimeType

    init(downstream: Downstream, publisher: MarblePublisher, start: VirtualTimeScheduler.SchedulerTimeType) {
        self.downstream = downstream
        self.publisher = publisher
        self.start = start
    }

    func scheduleNext() {
        let next = lock.guarded { () -> Int? in
            guard downstream != nil, index < publisher.events.count else { return nil }
            return publisher.ticks[index]
        }
        guard let next else { return }
        let at = start.advanced(by: publisher.tick * next)
        // The repeating form gives a cancellable timer; the action stops it after one tick.
        let target: any MarbleFiring = self
        let handle = AnyCancellable(
            publisher.scheduler.schedule(after: at, interval: .seconds(3600)) { target.fire() })
        lock.guarded { timer = handle }
    }

    func fire() {
        let step = lock.guarded { () -> (Downstream, MarbleEvent, Bool, AnyCancellable?)? in
            let handle = timer
            timer = nil
            guard let target = downstream, index < publisher.events.count else { return nil }
            let event = publisher.events[index]
            index += 1
            var deliver = true
            switch event {
            case .value:
                if demand > 0 { demand -= 1 } else { deliver = false }
            case .finished, .failure:
                downstream = nil
            }
            return (target, event, deliver, handle)
        }
        guard let (target, event, deliver, handle) = step else { return }
        handle?.cancel()
        // Same-tick events are delivered before the next is scheduled.
        switch event {
        case .value(let value):
            if deliver {
                let more = target.receive(value)
                lock.guarded { if downstream != nil { demand += more } }
            }
            scheduleNext()
        case .finished:
            target.receive(completion: .finished)
        case .failure:
            target.receive(completion: .failure(TestError("#")))
        }
    }

    func request(_ more: Subscribers.Demand) {
        lock.guarded { if downstream != nil { demand += more } }
    }

    func cancel() {
        let handle = lock.guarded { () -> AnyCancellable? in
            downstream = nil
            defer { timer = nil }
            return timer
        }
        handle?.cancel()
    }
}

/// Records events with the virtual time they arrived at, and draws them as a marble diagram.
public final class MarbleRecorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var subscription: (any Subscription)?
    private var records: [(time: Int64, symbol: String)] = []
    private let scheduler: VirtualTimeScheduler
    private let start: Int64
    private let demand: Subscribers.Demand
    private let format: (Input) -> String

    /// - Parameters:
    ///   - scheduler: Whose clock stamps the events.
    ///   - demand: Requested on subscription (`.unlimited` by default).
    ///   - format: How a value is drawn (its description by default).
    public init(scheduler: VirtualTimeScheduler, demand: Subscribers.Demand = .unlimited, format: @escaping (Input) -> String = { "\($0)" }) {
        self.scheduler = scheduler
        self.start = scheduler.now.nanoseconds
        self.demand = demand
        self.format = format
    }

    public func receive(subscription: any Subscription) {
        lock.guarded { self.subscription = subscription }
        if demand > 0 { subscription.request(demand) }
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        let symbol = format(input)
        record(symbol)
        return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: record("|")
        case .failure: record("#")
        }
    }

    private func record(_ symbol: String) {
        let now = scheduler.now.nanoseconds
        lock.guarded { records.append((now, symbol)) }
    }

    /// Requests more values.
    public func request(_ demand: Subscribers.Demand) {
        lock.guarded { subscription }?.request(demand)
    }

    public func cancel() {
        lock.guarded { subscription }?.cancel()
    }

    /// The recorded events as a diagram with ticks of `tick`; an event between ticks is drawn at
    /// the tick before it.
    public func diagram(tick: VirtualTimeScheduler.SchedulerTimeType.Stride = .milliseconds(10)) -> String {
        let records = lock.guarded { self.records }
        guard let last = records.last else { return "" }
        let length = max(tick.nanoseconds, 1)
        let slot = { (time: Int64) in Int((time - self.start) / length) }
        var cells = Array(repeating: [String](), count: slot(last.time) + 1)
        for record in records { cells[slot(record.time)].append(record.symbol) }
        return cells.map { cell in
            switch cell.count {
            case 0: return "-"
            case 1: return cell[0]
            default: return "(" + cell.joined() + ")"
            }
        }.joined()
    }
}

/// The outcome of a marble test: both diagrams, and whether they match.
public struct MarbleResult: CustomStringConvertible, Sendable {
    /// The diagram the test expected.
    public let expected: String
    /// The diagram the publisher produced.
    public let actual: String

    /// Whether the diagrams match (spaces and trailing `-` ignored).
    public var passed: Bool { Self.normalized(expected) == Self.normalized(actual) }

    static func normalized(_ diagram: String) -> String {
        var text = diagram.filter { $0 != " " }
        while text.last == "-" { text.removeLast() }
        return text
    }

    /// The two diagrams, one above the other, for a failure message.
    public var description: String {
        "\nExpected: \(Self.normalized(expected))\nActual:   \(Self.normalized(actual))"
    }
}

/// Runs a marble test: builds the publisher under test from a marble source on a fresh
/// `VirtualTimeScheduler`, subscribes at time 0, advances virtual time past both diagrams, and
/// compares what arrived with `expected`. On a mismatch it prints the `Expected:` and `Actual:`
/// diagrams (pass the result to `#expect(result.passed, "\(result)")` to see them in the report).
///
/// - Parameters:
///   - input: The source diagram.
///   - expected: The diagram the output should draw.
///   - tick: The length of one character.
///   - demand: What the recording subscriber requests at first.
///   - extraTicks: How far past the longer diagram to run (for late surprises).
///   - cancelAt: A tick at which the recording subscriber cancels.
///   - format: How an output value is drawn.
///   - build: Makes the publisher under test from the source and the scheduler.
public func marbles<P: Publisher>(
    _ input: String,
    expected: String,
    tick: VirtualTimeScheduler.SchedulerTimeType.Stride = .milliseconds(10),
    demand: Subscribers.Demand = .unlimited,
    extraTicks: Int = 5,
    cancelAt: Int? = nil,
    format: @escaping (P.Output) -> String = { "\($0)" },
    _ build: (MarblePublisher, VirtualTimeScheduler) -> P
) -> MarbleResult {
    let scheduler = VirtualTimeScheduler()
    let source = MarblePublisher(input, scheduler: scheduler, tick: tick)
    let recorder = MarbleRecorder<P.Output, P.Failure>(scheduler: scheduler, demand: demand, format: format)
    build(source, scheduler).subscribe(recorder)
    let length = max(input.count, expected.count) + extraTicks
    if let cancelAt {
        scheduler.advance(to: .init(nanoseconds: (tick * cancelAt).nanoseconds))
        recorder.cancel()
    }
    scheduler.advance(to: .init(nanoseconds: (tick * length).nanoseconds))
    let result = MarbleResult(expected: expected, actual: recorder.diagram(tick: tick))
    if !result.passed { print("Marble mismatch for input \(input):\(result)") }
    return result
}

/// A marble test with several sources (for `merge`, `zip`, `combineLatest`, `switchToLatest` …):
/// `inputs[i]` becomes `sources[i]`, all on the same scheduler and tick.
///
/// ```swift
/// let result = marbles(["-a---c|", "--b-|"], expected: "-ab--c|") { sources, _ in
///     sources[0].merge(with: sources[1])
/// }
/// ```
public func marbles<P: Publisher>(
    _ inputs: [String],
    expected: String,
    tick: VirtualTimeScheduler.SchedulerTimeType.Stride = .milliseconds(10),
    demand: Subscribers.Demand = .unlimited,
    extraTicks: Int = 5,
    cancelAt: Int? = nil,
    format: @escaping (P.Output) -> String = { "\($0)" },
    _ build: ([MarblePublisher], VirtualTimeScheduler) -> P
) -> MarbleResult {
    let scheduler = VirtualTimeScheduler()
    let sources = inputs.map { MarblePublisher($0, scheduler: scheduler, tick: tick) }
    let recorder = MarbleRecorder<P.Output, P.Failure>(scheduler: scheduler, demand: demand, format: format)
    build(sources, scheduler).subscribe(recorder)
    let length = (inputs.map(\.count) + [expected.count]).max()! + extraTicks
    if let cancelAt {
        scheduler.advance(to: .init(nanoseconds: (tick * cancelAt).nanoseconds))
        recorder.cancel()
    }
    scheduler.advance(to: .init(nanoseconds: (tick * length).nanoseconds))
    let result = MarbleResult(expected: expected, actual: recorder.diagram(tick: tick))
    if !result.passed { print("Marble mismatch for inputs \(inputs):\(result)") }
    return result
}
