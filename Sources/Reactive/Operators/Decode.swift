extension Publisher {
    /// Decodes every value into `type` with `decoder`; a decoding error fails the publisher.
    ///
    /// ```swift
    /// Just(data).decode(type: Point.self, decoder: JSONDecoder())
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder, `JSONDecoder` for instance; it reads this publisher's values.
    /// - Returns: A publisher of decoded values whose failure type is `any Error`.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder) -> Publishers.Decode<Self, Item, Coder>
    where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// The publisher `decode(type:decoder:)` returns.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream
        /// The decoder.
        public let decoder: Coder

        /// Creates a publisher of `upstream`'s values decoded by `decoder`.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.tryMap { try decoder.decode(Output.self, from: $0) }.receive(subscriber: subscriber)
        }
    }
}
