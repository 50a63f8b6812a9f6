extension Publisher where Output: Encodable {
    /// Encodes every value with `encoder`; an encoding error fails the publisher.
    ///
    /// ```swift
    /// Just(Point(x: 1, y: 2)).encode(encoder: JSONEncoder())   // Data of {"x":1,"y":2}
    /// ```
    /// - Parameter encoder: The encoder, `JSONEncoder` for instance.
    /// - Returns: A publisher of encoded values whose failure type is `any Error`.
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers {
    /// The publisher `encode(encoder:)` returns.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream
        /// The encoder.
        public let encoder: Coder

        /// Creates a publisher of `upstream`'s values, encoded by `encoder`.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.tryMap { try encoder.encode($0) }.receive(subscriber: subscriber)
        }
    }
}
