import Dispatch
import Synchronization
import Reactive
import ReactiveAsync

/// Which side of a crossing a stage stands on: Combine's publishers (push, demand) or
/// `AsyncSequence`s (pull, one `next()` at a time) after `values` or `stream`.
public enum Side: Sendable, Hashable {
    /// A publisher stage, built with `Reactive`.
    case publisher
    /// An `AsyncSequence` stage, built with `ReactiveAsync` (or the standard library's operators).
    case async

    /// How a person reads it in a diagnostic.
    var phrase: String {
        switch self {
        case .publisher: "a publisher"
        case .async: "an async sequence"
        }
    }

    /// The stage that crosses to this side, for fix-its.
    var crossingStage: String {
        switch self {
        case .publisher: "publisher"
        case .async: "values"
        }
    }
}

/// What a crossing stage does: `values` and `stream` go from a publisher to an async sequence,
/// `publisher` comes back.
enum Crossing: Sendable, Hashable {
    /// `publisher.values`: asks for one value per `next()`.
    case values
    /// Article 002's bridge: an `AsyncThrowingStream` fed by a `sink` that asks for everything.
    case stream
    /// `sequence.publisher`: iterates in a task while there is demand.
    case publisher

    /// The side after the crossing.
    var to: Side { self == .publisher ? .publisher : .async }
}

/// An entry's form on the async side (its twin): what `debounce` is after `values`.
struct AsyncForm: Sendable {
    /// The async sequence type it makes (`AsyncDebounceSequence`), for `:type`.
    var sequenceType: String
    /// The Swift form, e.g. `.debounce(for:clock:)` (swift-async-algorithms) or `.map(_:)` (the
    /// standard library's `AsyncSequence`).
    var swift: String
    /// What differs from the publisher form, with where it is documented; nil when nothing a
    /// pipeline can observe differs.
    var difference: String?
    /// Builds the stage over the async sequence before it.
    var build: AsyncBuilder
    /// The output shape when it differs from the entry's own rule (nil: the entry's `infer`).
    var infer: Inference? = nil
    /// The twin as Swift over the async sequence before it (`:swift`); nil when it is spelled as
    /// the publisher form is (`.map { … }`, `.filter { … }`, `.dropFirst(2)`): the entry's `swift`.
    var translate: SwiftTranslation? = nil
    /// A source whose overload with this index starts the pipeline on the async side
    /// (`timer every 100ms`); `build` then gets an empty base.
    var startsOverload: Int? = nil
}

/// Makes an async stage from its checked stage (`b.upstream` is unused) and the sequence before it.
typealias AsyncBuilder = @Sendable (StageBuild, AsyncValues) throws -> AsyncValues

/// The type-erased async sequence between async stages, as `ValueStream` is between publishers:
/// every async stage consumes and produces `Value`s and may throw.
struct AsyncValues: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = any Error

    private let make: @Sendable () -> Iterator

    /// Erases `base`.
    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Value {
        make = { Iterator(base.makeAsyncIterator()) }
    }

    private init(make: @escaping @Sendable () -> Iterator) { self.make = make }

    func makeAsyncIterator() -> Iterator { make() }

    /// One iteration: the base iterator behind a closure.
    struct Iterator: AsyncIteratorProtocol {
        private let step: () async throws -> Value?

        init<Base: AsyncIteratorProtocol>(_ base: Base) where Base.Element == Value {
            var base = base
            step = { try await base.next() }
        }

        init(step: @escaping () async throws -> Value?) { self.step = step }

        mutating func next() async throws -> Value? { try await step() }
    }

    /// The same sequence, whose `next()` runs with `TaskSpawning.preferredExecutor` set, so the
    /// tasks ReactiveAsync's operators start (debounce's, merge's …) run on the runtime's manual
    /// executor on the virtual clock: one timeline with the publisher stages.
    func preferring(_ executor: (any TaskExecutor)?) -> AsyncValues {
        guard let executor else { return self }
        let base = self
        return AsyncValues {
            var iterator = base.makeAsyncIterator()
            return Iterator {
                try await TaskSpawning.$preferredExecutor.withValue(executor) { try await iterator.next() }
            }
        }
    }

    /// Each element and the end reported on a marble-diagram lane, as `Tracing` does for a
    /// publisher stage (`.subscribed` when an iteration starts), and each `next()` the consumer
    /// calls as `.pulled`, when it calls it (before the element it waits for).
    ///
    /// An iteration ends with a cancel when the consuming task was cancelled (its sequence answers
    /// with nil or `CancellationError`), and also when its consumer lets it go before its end (a
    /// `take 3` after it is done): nothing asks it again, as a cancelled subscription is asked
    /// nothing. `lanes` counts the iterations not yet ended, so a run can wait for them before
    /// its diagram is drawn.
    func reporting(counting lanes: OpenAsyncLanes, _ signal: @escaping @Sendable (LaneSignal) -> Void) -> AsyncValues {
        let base = self
        return AsyncValues {
            let iteration = LaneIteration(lanes: lanes, signal: signal)
            signal(.subscribed)
            var iterator = base.makeAsyncIterator()
            return Iterator {
                guard !iteration.ended else { return nil }
                signal(.pulled)
                do {
                    if let value = try await iterator.next() {
                        signal(.value(value))
                        return value
                    }
                    // A sequence answers a cancelled task with nil (the package's timer, a
                    // channel …): that end is a cancel, not a finish.
                    iteration.end(Task.isCancelled ? .cancelled : .finished)
                    return nil
                } catch {
                    iteration.end(error is CancellationError ? .cancelled : .failed(PipelineError.from(error)))
                    throw error
                }
            }
        }
    }
}

/// One iteration of a reported async lane: ends once, with the signal it ended by, or with a
/// cancel when its iterator is released before it ended.
private final class LaneIteration: @unchecked Sendable {
    // @unchecked: `ended` is touched by the one task iterating (a `next()` at a time) and by
    // `deinit`, which runs after the last `next()` returned.
    private(set) var ended = false
    private let lanes: OpenAsyncLanes
    private let signal: @Sendable (LaneSignal) -> Void

    init(lanes: OpenAsyncLanes, signal: @escaping @Sendable (LaneSignal) -> Void) {
        self.lanes = lanes
        self.signal = signal
        lanes.opened()
    }

    func end(_ end: LaneSignal) {
        guard !ended else { return }
        ended = true
        signal(end)
        lanes.closed()
    }

    deinit { end(.cancelled) }
}

/// How many reported async lanes of a run are iterating (`AsyncValues.reporting`): a cancelled
/// task reports its lanes' ends when it next runs, after the run's own end, so the shell waits
/// for them (`PipelineRun.asyncLanesOpen`) before it draws the diagram.
final class OpenAsyncLanes: Sendable {
    private let count = Atomic<Int>(0)

    var open: Bool { count.load(ordering: .acquiring) > 0 }
    func opened() { count.add(1, ordering: .relaxed) }
    func closed() { count.subtract(1, ordering: .releasing) }
}

extension CatalogEntry {
    /// The async sequence type after this stage on the async side, for `:type`: the crossing's
    /// (`values` is `AsyncThrowingPublisher`, or `AsyncPublisher` when upstream cannot fail) or
    /// the twin's.
    func asyncSequenceType(canFail: Bool) -> String? {
        switch crossing {
        case .values?: return canFail ? "AsyncThrowingPublisher" : "AsyncPublisher"
        case .stream?: return "AsyncThrowingStream"
        case .publisher?: return nil
        case nil: return async?.sequenceType
        }
    }
}

extension StageBuild {
    /// Calls `virtual` with the runtime's `VirtualClock` (one time with its scheduler), or `real`
    /// with the continuous clock: the async twin of `onScheduler`.
    func onClock(_ virtual: (VirtualClock) -> AsyncValues, _ real: (ContinuousClock) -> AsyncValues) -> AsyncValues {
        if let parts = context.runtime.virtual { return virtual(parts.clock) }
        return real(ContinuousClock())
    }

    /// A publisher argument as an async sequence (`merge`'s, `zip`'s other side after `values`):
    /// built as a publisher, crossed with `.values`.
    func asyncSequence(_ i: Int) throws -> AsyncValues {
        AsyncValues(try publisher(i).values)
    }
}

extension AsyncSequence where Self: Sendable, Element == Value {
    /// Erases to the sequence async stages are built over.
    func asyncValues() -> AsyncValues { AsyncValues(self) }
}
