/// What a stateful operator does with one upstream value.
@usableFromInline
enum Step<Output, Failure: Error> {
    /// Send this value downstream.
    case emit(Output)
    /// Send nothing and ask upstream for this much more: `.max(1)` for a dropped value (C13),
    /// `.none` for a value that was absorbed (a reducer, a buffer).
    case skip(Subscribers.Demand)
    /// Done early: cancel upstream, send the value (once downstream demand allows) and `.finished`.
    case finish(Output?)
    /// Done with an error (a user closure threw): cancel upstream and send one `.failure` (C33).
    case fail(Failure)
}

/// The pure state machine of an operator that wraps its upstream subscription.
///
/// `StepEngine` owns the locking, demand and lifecycle; a logic value only decides what
/// each value and the completion turn into. It is called without any lock held, one signal at a
/// time, so it may run user closures; it is a value type so tests can drive it without threads.
@usableFromInline
protocol StepLogic {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// The name `description` and `print` show.
    static var operatorName: String { get }

    /// How downstream demand maps to upstream demand: `1` forwards it, `n` multiplies it (collect
    /// by count), `nil` never forwards it and asks upstream for `.unlimited` at once (reducers).
    var demandFactor: Int? { get }

    /// Whether the operator is done before any value arrives (`prefix(0)`).
    var isFinishedAtStart: Bool { get }

    /// Handles one value.
    mutating func receive(_ input: Input) -> Step<Output, Failure>

    /// Handles the upstream completion: an optional last value (sent with `.finished` once there
    /// is demand for it) and the completion to send.
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>)
}

extension StepLogic {
    @inlinable var demandFactor: Int? { 1 }
    @inlinable var isFinishedAtStart: Bool { false }
}

extension StepLogic where Failure == UpstreamFailure {
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        (nil, completion)
    }
}

extension StepLogic where Failure == any Error {
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        (nil, completion.mapError { $0 })
    }
}

/// A logic that absorbs every value and publishes one result: it asks upstream for `.unlimited`
/// and holds its result until downstream demand arrives (C03).
@usableFromInline
protocol ReducerLogic: StepLogic {
    /// The result to publish when upstream finishes; `nil` publishes nothing.
    mutating func result() -> Output?
}

extension ReducerLogic {
    @inlinable var demandFactor: Int? { nil }
}

extension ReducerLogic where Failure == UpstreamFailure {
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: return (result(), .finished)
        case .failure: return (nil, completion)
        }
    }
}

extension ReducerLogic where Failure == any Error {
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Output?, Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: return (result(), .finished)
        case .failure(let error): return (nil, .failure(error))
        }
    }
}
