// Fusing a run of step operators into one engine.
//
// `tryMap { … }.count()` is two operators; unfused, each value would cross `tryMap`'s operator and
// `count`'s `StepEngine`. A per-value operator (one that turns each value into at most one value or
// a failure, forwards demand one for one and passes the completion on) subscribing to a fresh
// engine instead takes that engine's logic and downstream and runs both logics in one engine: one
// flow, one pair of compare-and-swaps per value, the same events, demand and lifecycle. The
// downstream sees one subscription, named after the operator nearest to it, as it did before. In
// front of anything else a per-value operator needs no engine at all (`PerValueRelay.swift`).

/// A logic that turns each value into at most one value (`.emit`, `.skip`) or a failure
/// (`.fail`), never ends early, forwards demand one for one and passes the completion on
/// unchanged apart from its error type: what `FusedLogic` may put in front of another logic.
@usableFromInline
protocol PerValueLogic: StepLogic {}

/// `First` then `Second` as one logic: `Second` sees exactly the signals the engine after
/// `First` would have passed it.
@usableFromInline
struct FusedLogic<First: PerValueLogic, Second: StepLogic>: StepLogic
where First.Output == Second.Input, First.Failure == Second.UpstreamFailure {
    @usableFromInline typealias Input = First.Input
    @usableFromInline typealias Output = Second.Output
    @usableFromInline typealias UpstreamFailure = First.UpstreamFailure
    @usableFromInline typealias Failure = Second.Failure

    @usableFromInline var first: First
    @usableFromInline var second: Second

    @inlinable
    init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    @usableFromInline static var operatorName: String { Second.operatorName }
    @inlinable var demandFactor: Int? { second.demandFactor }
    @inlinable var isFinishedAtStart: Bool { second.isFinishedAtStart }

    // Always inlined into the engine: out of line it cost a call and the `Step` passed back.
    @inlinable
    @inline(__always)
    mutating func receive(_ input: Input) -> Step<Output, Failure> {
        switch first.receive(input) {
        case .emit(let value):
            return second.receive(value)
        case .skip(let demand):
            return .skip(demand)
        case .fail(let error):
            // Unfused, the first engine would cancel upstream and fail the second.
            let (output, completion) = second.complete(.failure(error))
            switch completion {
            case .finished: return .finish(output)
            case .failure(let error): return .fail(error)
            }
        case .finish:
            assertionFailure("\(First.self) is a PerValueLogic and must not finish early")
            return .skip(.none)
        }
    }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        let (_, passed) = first.complete(completion)
        return second.complete(passed)
    }
}

/// The superclass of every `StepEngine`, typed by what the engine receives: where a per-value
/// operator finds out whether its subscriber is an engine it can fuse with. A class and not a
/// protocol because a cast to a class folds away once the subscriber's type is known, and the call
/// is then specialised; a cast to a protocol existential stays a runtime conformance lookup, and
/// the fused engine built behind it ran unspecialised (measured: 800 ns per value instead of 10).
@usableFromInline
class StepFusionBase<Input, Failure: Error> {
    @inlinable init() {}

    /// Subscribes `upstream` with one engine running `first`, then this engine's logic, into this
    /// engine's downstream, and leaves this engine empty. Returns `false` (doing nothing) when this
    /// engine was already subscribed.
    @inlinable
    func subscribe<Upstream: Publisher, First: PerValueLogic>(_ upstream: Upstream, fusing first: First) -> Bool
    where First.Output == Input, First.Failure == Failure, Upstream.Output == First.Input, Upstream.Failure == First.UpstreamFailure {
        false
    }
}

/// Subscribes `subscriber` to `upstream` through `logic`: fused into the engine `subscriber` is
/// when it is a fresh one, otherwise through a `PerValueSubscriber`, which needs no engine
/// (`PerValueRelay.swift`).
@inlinable
func subscribeStep<Upstream: Publisher, Logic: PerValueLogic, S: Subscriber>(_ upstream: Upstream, _ logic: Logic, _ subscriber: S)
where Upstream.Output == Logic.Input, Upstream.Failure == Logic.UpstreamFailure, S.Input == Logic.Output, S.Failure == Logic.Failure {
    if let next = subscriber as? StepFusionBase<S.Input, S.Failure>, next.subscribe(upstream, fusing: logic) { return }
    upstream.receive(subscriber: PerValueSubscriber(logic: logic, downstream: subscriber))
}
