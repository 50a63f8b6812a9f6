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

    init(
        text: String, location: SourceLocation, isBackground: Bool, checked: CheckedPipeline, source: SourceText, runtime: Runtime, bindings: [String: Binding]
    ) {
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
    public var terminal: String { checked.terminalEntry.name }

    /// Subscribes; events arrive on any thread, serialised. The returned AnyCancellable cancels it
    /// (cancellation travels up the graph; a `.cancelled` event is emitted unless it had already
    /// completed).
    ///
    /// A synchronous source (`from 1...1000000`) emits every value before this returns, so the
    /// returned cancellable cannot stop it; to cancel such a run from another thread while it
    /// emits, make the handle first with `makeRun(trace:onEvent:)`.
    ///
    /// - Parameters:
    ///   - trace: Insert a `handleEvents` stage after every stage and report `.trace` events.
    ///   - onEvent: Called once per event, never concurrently.
    /// - Returns: Cancels the run when cancelled (or released).
    public func start(trace: Bool, record: Bool = false, onEvent: @escaping @Sendable (PipelineEvent) -> Void) -> AnyCancellable {
        let run = makeRun(trace: trace, record: record, onEvent: onEvent)
        run.start()
        return AnyCancellable(run)
    }

    /// Makes a run of this pipeline without subscribing yet: the handle exists before any value
    /// is computed, so `cancel()` on another thread can stop a `start()` that is still emitting a
    /// synchronous source (the shell cancels on Ctrl-C this way).
    ///
    /// ```swift
    /// let run = pipeline.makeRun(trace: false) { print($0) }
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { run.cancel() }
    /// run.start()   // `from 1...100000000`: returns soon after the cancel, with `.cancelled`
    /// ```
    /// - Parameters:
    ///   - trace: Insert a `handleEvents` stage after every stage and report `.trace` events.
    ///   - onEvent: Called once per event, never concurrently.
    /// - Returns: The run, not started; nothing happens until `start()`.
    ///   - record: Report `.lane` events for a marble diagram: every stage, inner publishers, and
    ///     each new subscription of a stage (a `retry`'s attempts).
    public func makeRun(trace: Bool, record: Bool = false, onEvent: @escaping @Sendable (PipelineEvent) -> Void) -> PipelineRun {
        PipelineRun(pipeline: self, trace: trace, record: record, events: EventSerializer(onEvent))
    }

    /// Builds the graph and subscribes its terminal; the work of `PipelineRun.start()`.
    /// - Parameter register: Called with the terminal's cancel before subscribing; returns false
    ///   when the run was cancelled meanwhile (then nothing is subscribed).
    fileprivate func subscribe(
        trace: Bool, record: Bool, events: EventSerializer, run: RunState, register: (@escaping @Sendable () -> Void) -> Bool
    ) {
        let context = BuildContext(runtime: runtime, bindings: bindings, events: events, trace: trace, record: record, run: run)
        let publisher: ValuePublisher
        do {
            publisher = try context.build(checked, source: source, env: .none, depth: 0)
        } catch {
            events.send(.subscribed)
            events.send(.failed(PipelineError.from(error)), terminal: true)
            return
        }
        guard case .terminal(let start) = checked.terminalEntry.build else { return }
        withoutActuallyEscaping(register) { register in
            start(
                TerminalStart(publisher: publisher, runtime: runtime, events: events) { stop in
                    // A proof that fails in the graph ends the run as a failure (`RunState.abort`).
                    context.run.onAbort { error in
                        events.send(.failed(error), terminal: true)
                        stop()
                    }
                    return register(stop)
                })
        }
    }
}

/// One run of a pipeline: made by `Pipeline.makeRun(trace:onEvent:)`, started once by `start()`,
/// and cancellable from any thread at any time.
///
/// `cancel()` before `start()` means the run never subscribes; during `start()` (a synchronous
/// source emits all its values from inside it) the source stops at its next value and `start()`
/// returns; after, it cancels as an `AnyCancellable` would. The first `cancel()` reports
/// `.cancelled` as the last event unless the run had already completed (cancelled before
/// `start()`, that is its only event). Releasing a run does not cancel it.
public final class PipelineRun: Cancellable, Sendable {
    private struct State {
        var started = false
        var cancelled = false
        /// Cancels the terminal, once it exists.
        var stop: (@Sendable () -> Void)?
    }
    private let state = Lock(State())
    /// Signalled once the first `cancel()` has reported `.cancelled` (or found the run completed).
    private let cancelReported = DispatchSemaphore(value: 0)
    private let pipeline: Pipeline
    private let trace: Bool
    private let record: Bool
    private let events: EventSerializer
    /// Shared by the graphs this run builds: its lanes, and its async lanes still iterating.
    private let runState = RunState()

    fileprivate init(pipeline: Pipeline, trace: Bool, record: Bool, events: EventSerializer) {
        self.record = record
        self.pipeline = pipeline
        self.trace = trace
        self.events = events
    }

    /// Builds a fresh graph and subscribes; the second and later calls do nothing.
    ///
    /// Returns when the pipeline is subscribed, which for a synchronous source is after its last
    /// value, or once a `cancel()` from another thread has stopped it and reported `.cancelled`.
    public func start() {
        let first = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started && !s.cancelled
        }
        if first {
            pipeline.subscribe(trace: trace, record: record, events: events, run: runState) { stop in
                state.withLock { s -> Bool in
                    guard !s.cancelled else { return false }
                    s.stop = stop
                    return true
                }
            }
        }
        // A cancel on another thread stops the source before it reports `.cancelled`: wait for
        // the report, so that a caller who saw `start()` return has every event.
        if isCancelled {
            cancelReported.wait()
            cancelReported.signal()
        }
    }

    /// True while an async stage's lane (recording, after `values`) has not reported its end: a
    /// cancelled consuming task reports it when it next runs, after the run's `cancelled`, and a
    /// lane its consumer let go (`take 3` done) when the iterator is released. The shell waits,
    /// bounded, until this is false before it draws the diagram (`ForegroundRun`), so each such
    /// lane ends with its `!` where the cancel happened.
    public var asyncLanesOpen: Bool { runState.asyncLanes.open }

    /// True once `cancel()` was called (the run may have completed before it).
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the run from any thread; idempotent. Cancellation travels up the graph and a
    /// `.cancelled` event is reported unless the run had already completed.
    public func cancel() {
        let (first, stop) = state.withLock { s -> (Bool, (@Sendable () -> Void)?) in
            guard !s.cancelled else { return (false, nil) }
            s.cancelled = true
            return (true, s.stop)
        }
        guard first else { return }
        stop?()
        events.send(.cancelled, terminal: true)
        cancelReported.signal()
    }
}

/// Delivers events one at a time without holding a lock while calling out: whoever finds the
/// queue idle drains it; others only enqueue. After a terminal event nothing more is delivered
/// but a diagram lane's end (`PipelineEvent.isLaneEnd`): a cancelled task's lanes end after the run.
///
/// The queue is bounded (`capacity`): when the deliverer is slow to come back (its terminal is
/// not read: Ctrl-S, a slow link) and other threads keep sending, a sender that finds the queue
/// full waits until the deliverer takes it, as a single-threaded run waits on the terminal
/// itself. Never waiting: a terminal event (Ctrl-C's `cancelled` must get through), and an event
/// sent by the deliverer's own thread (from `onEvent`, which would otherwise wait on itself).
/// Once the run has ended, waiting senders are let go and their events dropped, as after any end.
final class EventSerializer: Sendable {
    /// Events queued at most while one is being delivered.
    static let capacity = 4096

    private struct State {
        var queue: [PipelineEvent] = []
        var draining = false
        var terminated = false
        /// The thread delivering (while `draining`).
        var deliverer: pthread_t?
        /// Senders waiting for room in the queue.
        var waiting = 0
    }
    private let state = Lock(State())
    /// Signalled once per waiting sender when the queue is taken or the run ends.
    private let room = DispatchSemaphore(value: 0)
    private let onEvent: @Sendable (PipelineEvent) -> Void

    init(_ onEvent: @escaping @Sendable (PipelineEvent) -> Void) { self.onEvent = onEvent }

    var isTerminated: Bool { state.withLock { $0.terminated } }

    /// Events queued now, and senders waiting for room (for tests of the bound).
    var pending: (queued: Int, waiting: Int) { state.withLock { ($0.queue.count, $0.waiting) } }

    private enum Admission {
        case deliver, queued, dropped, wait
    }

    func send(_ event: PipelineEvent, terminal: Bool = false) {
        // The common case: nobody is delivering, so this thread delivers its event directly,
        // with nothing queued (no array traffic per event); events that arrive meanwhile from
        // other threads, or re-entrantly from `onEvent`, queue up and are drained after it.
        let me = pthread_self()
        while true {
            let admission = state.withLock { s -> Admission in
                guard !s.terminated || event.isLaneEnd else { return .dropped }
                if s.draining {
                    if !terminal, s.queue.count >= Self.capacity, let deliverer = s.deliverer, pthread_equal(deliverer, me) == 0 {
                        s.waiting += 1
                        return .wait
                    }
                    if terminal { s.terminated = true }
                    s.queue.append(event)
                    return .queued
                }
                if terminal { s.terminated = true }
                s.draining = true
                s.deliverer = me
                return .deliver
            }
            switch admission {
            case .dropped: return
            case .queued:
                if terminal { releaseWaiting() }
                return
            case .wait:
                room.wait()
                continue
            case .deliver: break
            }
            break
        }
        onEvent(event)
        // One lock round trip more when nothing queued meanwhile (the common case).
        let queued = state.withLock { s -> Bool in
            if s.queue.isEmpty {
                s.draining = false
                s.deliverer = nil
            }
            return s.draining
        }
        if queued { drain() }
    }

    /// Delivers what other threads (or `onEvent` itself) queued while this thread delivered, until
    /// the queue is empty; then stops draining.
    private func drain() {
        var batch: [PipelineEvent] = []
        while true {
            let waiting = state.withLock { s -> Int in
                if s.queue.isEmpty {
                    s.draining = false
                    s.deliverer = nil
                } else {
                    swap(&batch, &s.queue)
                }
                // The queue was taken (or the run ended): every waiting sender may try again.
                let waiting = s.waiting
                s.waiting = 0
                return waiting
            }
            for _ in 0..<waiting { room.signal() }
            if batch.isEmpty { return }
            for e in batch { onEvent(e) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Lets every waiting sender go (the run ended: their events are dropped).
    private func releaseWaiting() {
        let waiting = state.withLock { s -> Int in
            let waiting = s.waiting
            s.waiting = 0
            return waiting
        }
        for _ in 0..<waiting { room.signal() }
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
