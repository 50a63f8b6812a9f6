extension Subscribers {
    /// How a publisher ended: it finished normally or failed with an error.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher will send no more values and did not fail.
        case finished
        /// The publisher stopped because of `Failure`.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion {
    /// The same completion with its error transformed.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Subscribers.Completion<E> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(transform(error))
        }
    }

    /// Whether this is `.finished`.
    @inlinable
    public var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}

extension Subscribers.Completion where Failure == Never {
    /// Reinterprets a completion that cannot fail as one of any failure type.
    @inlinable
    public func promoted<E: Error>(to: E.Type = E.self) -> Subscribers.Completion<E> { .finished }
}
