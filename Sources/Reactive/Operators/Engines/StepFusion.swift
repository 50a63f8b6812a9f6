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
protocol PerValueLogic: StepLogic {
    /// The name the upstream sees on the subscriber (`description`): a fused pair's is its first
    /// operator's, as the upstream of two subscribers saw the first.
    static var subscriberName: String { get }

    /// Handles one value in a `PerValueSubscriber`, whose `gate` says whether the subscription is
    /// still open: a fused pair asks it between its two logics, so a cancel from inside the first
    /// closure keeps the second from running, as it would with two subscribers (C15).
    mutating func receive(_ input: Input, through gate: PerValueGate) -> Step<Output, Failure>
}

extension PerValueLogic {
    @inlinable static var subscriberName: String { operatorName }

    @inlinable
    @inline(__always)
    mutating func receive(_ input: Input, through gate: PerValueGate) -> Step<Output, Failure> { receive(input) }
}

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
            return failing(error)
        case .finish:
            assertionFailure("\(First.self) is a PerValueLogic and must not finish early")
            return .skip(.none)
        }
    }

    /// The first logic threw: unfused, its operator would cancel upstream and fail the second.
    @inlinable
    mutating func failing(_ error: First.Failure) -> Step<Output, Failure> {
        let (output, completion) = second.complete(.failure(error))
        switch completion {
        case .finished: return .finish(output)
        case .failure(let error): return .fail(error)
        }
    }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        let (_, passed) = first.complete(completion)
        return second.complete(passed)
    }
}

/// Two per-value logics in a row are one per-value logic: one `PerValueSubscriber` runs both
/// (`tryMap { … }.tryFilter { … }`), and a third in front fuses again.
extension FusedLogic: PerValueLogic where Second: PerValueLogic {
    @usableFromInline static var subscriberName: String { First.subscriberName }

    // Always inlined into the subscriber, as `receive(_:)` is into the engine.
    @inlinable
    @inline(__always)
    mutating func receive(_ input: Input, through gate: PerValueGate) -> Step<Output, Failure> {
        switch first.receive(input, through: gate) {
        case .emit(let value):
            // A cancel from inside the first closure: the second subscriber would have dropped it.
            guard gate.isOpen else { return .skip(.none) }
            return second.receive(value, through: gate)
        case .skip(let demand):
            return .skip(demand)
        case .fail(let error):
            return failing(error)
        case .finish:
            assertionFailure("\(First.self) is a PerValueLogic and must not finish early")
            return .skip(.none)
        }
    }
}

/// The superclass of every `StepEngine` and `PerValueSubscriber`, typed by what it receives: where a
/// per-value operator finds out whether its subscriber is one it can fuse with. A class and not a
/// protocol because a cast to a class folds away once the subscriber's type is known, and the call
/// is then specialised; a cast to a protocol existential stays a runtime conformance lookup, and
/// the fused engine built behind it ran unspecialised (measured: 800 ns per value instead of 10).
@usableFromInline
class StepFusionBase<Input, Failure: Error> {
    @inlinable init() {}

    /// Subscribes `upstream` with one engine (or subscriber) running `first`, then this one's
    /// logic, into this one's downstream, and leaves this one empty. Returns `false` (doing
    /// nothing) when this one was already subscribed.
    @inlinable
    func subscribe<Upstream: Publisher, First: PerValueLogic>(_ upstream: Upstream, fusing first: First) -> Bool
    where First.Output == Input, First.Failure == Failure, Upstream.Output == First.Input, Upstream.Failure == First.UpstreamFailure {
        false
    }
}

/// Subscribes `subscriber` to `upstream` through `logic`: fused into the engine or per-value
/// subscriber `subscriber` is when it is a fresh one, otherwise through a `PerValueSubscriber`,
/// which needs no engine (`PerValueRelay.swift`).
@inlinable
func subscribeStep<Upstream: Publisher, Logic: PerValueLogic, S: Subscriber>(_ upstream: Upstream, _ logic: Logic, _ subscriber: S)
where Upstream.Output == Logic.Input, Upstream.Failure == Logic.UpstreamFailure, S.Input == Logic.Output, S.Failure == Logic.Failure {
    if let next = subscriber as? StepFusionBase<S.Input, S.Failure>, next.subscribe(upstream, fusing: logic) { return }
    upstream.receive(subscriber: PerValueSubscriber(logic: logic, downstream: subscriber))
}
