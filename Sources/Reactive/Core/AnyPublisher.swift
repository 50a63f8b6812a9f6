/// A publisher that hides the type of the publisher it wraps.
///
/// ```swift
/// func numbers() -> AnyPublisher<Int, Never> {
///     [1, 2, 3].publisher.map { $0 * 2 }.eraseToAnyPublisher()
/// }
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline let box: PublisherBoxBase<Output, Failure>

    /// Wraps `publisher`.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let already = publisher as? AnyPublisher<Output, Failure> {
            box = already.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }

    public var description: String { "AnyPublisher" }
}

extension AnyPublisher: Sendable where Output: Sendable {}

extension Publisher {
    /// Hides this publisher's type behind `AnyPublisher`.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

@usableFromInline
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: no stored state of its own; the one subclass adds only a `let` publisher.
    @inlinable init() {}
    @inlinable func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        fatalError("abstract")
    }
}

@usableFromInline
final class PublisherBox<P: Publisher>: PublisherBoxBase<P.Output, P.Failure>, @unchecked Sendable {
    // @unchecked: `base` is an immutable publisher value, only ever subscribed to (as Combine's box is).
    @usableFromInline let base: P
    @inlinable init(_ base: P) { self.base = base }
    @inlinable override func receive<S: Subscriber>(subscriber: S) where S.Input == P.Output, S.Failure == P.Failure {
        base.receive(subscriber: subscriber)
    }
}
