import Foundation
import Synchronization

/// A compiled pipeline statement, ready to run (each `start` builds a fresh graph).
public struct Pipeline: Sendable {
    /// The statement's text.
    public var text: String
    /// Where it starts.
    public var location: SourceLocation
    /// Ends in `&`.
    public var isBackground: Bool
    let checked: CheckedPipeline
    let source: SourceText
    let runtime: Runtime
    let bindings: [String: Binding]

    init(text: String, location: SourceLocation, isBackground: Bool, checked: CheckedPipeline, source: SourceText, runtime: Runtime, bindings: [String: Binding]) {
        self.text = text
        self.location = location
        self.isBackground = isBackground
        self.checked = checked
        self.source = source
        self.runtime = runtime
        self.bindings = bindings
    }

    /// Builds a fresh `Reactive` graph for this pipeline without subscribing (the terminal is not
    /// part of it). Useful to embed a `.pipe` pipeline in Swift code, and for benchmarks.
    ///
    /// ```swift
    /// let publisher = try pipeline.makePublisher()
    /// let c = publisher.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    /// - Throws: `PipelineError` when an argument cannot be evaluated.
    public func makePublisher() throws -> AnyPublisher<Value, any Error> {
        let context = BuildContext(runtime: runtime, bindings: bindings, events: nil)
        return AnyPublisher(try context.build(checked, source: source, env: .none, depth: 0))
    }

    /// The terminal that ends it: `sink`, `values` or `async`.
    public var terminal: String { checked.terminal }

    /// Subscribes; events arrive on any thread, serialised. The returned AnyCancellable cancels it
    /// (cancellation travels up the graph; a `.cancelled` event is emitted unless it had already
    /// completed).
    ///
    /// - Parameters:
    ///   - trace: Insert a `handleEvents` stage after every stage and report `.trace` events.
    ///   - onEvent: Called once per event, never concurrently.
    /// - Returns: Cancels the run when cancelled (or released).
    public func start(trace: Bool, onEvent: @escaping @Sendable (PipelineEvent) -> Void) -> AnyCancellable {
        let events = EventSerializer(onEvent)
        let context = BuildContext(runtime: runtime, bindings: bindings, events: trace ? events : nil)
        let publisher: ValuePublisher
        do {
            publisher = try context.build(checked, source: source, env: .none, depth: 0)
        } catch {
            events.send(.subscribed)
            events.send(.failed(PipelineError.from(error)), terminal: true)
            return AnyCancellable {}
        }
        switch checked.terminal {
        case "values", "async":
            return Terminals.startAsync(publisher, terminal: checked.terminal, runtime: runtime, events: events)
        default:
            let subscriber = EventSubscriber(events: events)
            publisher.subscribe(subscriber)
            return AnyCancellable {
                subscriber.cancel()
                events.send(.cancelled, terminal: true)
            }
        }
    }
}

/// Delivers events one at a time without holding a lock while calling out: whoever finds the
/// queue idle drains it; others only enqueue. After a terminal event nothing more is delivered.
final class EventSerializer: Sendable {
    private struct State {
        var queue: [PipelineEvent] = []
        var draining = false
        var terminated = false
    }
    private let state = Lock(State())
    private let onEvent: @Sendable (PipelineEvent) -> Void

    init(_ onEvent: @escaping @Sendable (PipelineEvent) -> Void) { self.onEvent = onEvent }

    var isTerminated: Bool { state.withLock { $0.terminated } }

    func send(_ event: PipelineEvent, terminal: Bool = false) {
        let drain = state.withLock { s -> Bool in
            guard !s.terminated else { return false }
            if terminal { s.terminated = true }
            s.queue.append(event)
            if s.draining { return false }
            s.draining = true
            return true
        }
        guard drain else { return }
        while true {
            let batch = state.withLock { s -> [PipelineEvent] in
                let batch = s.queue
                s.queue.removeAll()
                if batch.isEmpty { s.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            for e in batch { onEvent(e) }
        }
    }
}

/// The `sink` terminal: requests everything and turns signals into events.
final class EventSubscriber: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: `subscription` and `done` are only touched under `lock`.
    typealias Input = Value
    typealias Failure = any Error
    private let lock = Lock()
    private var subscription: (any Subscription)?
    private var done = false
    private let events: EventSerializer

    init(events: EventSerializer) { self.events = events }

    func receive(subscription: any Subscription) {
        let accept = lock.guarded { () -> Bool in
            guard self.subscription == nil, !done else { return false }
            self.subscription = subscription
            return true
        }
        guard accept else { return subscription.cancel() }
        events.send(.subscribed)
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        events.send(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        lock.guarded {
            done = true
            subscription = nil
        }
        switch completion {
        case .finished: events.send(.finished, terminal: true)
        case .failure(let e): events.send(.failed(PipelineError.from(e)), terminal: true)
        }
    }

    func cancel() {
        let s = lock.guarded { () -> (any Subscription)? in
            done = true
            defer { subscription = nil }
            return subscription
        }
        s?.cancel()
    }
}
