extension Publisher {
    /// Publishes the value of a key path of every value.
    ///
    /// ```swift
    /// struct Point { var x: Int; var y: Int }
    /// [Point(x: 1, y: 2)].publisher.map(\.x)   // 1
    /// ```
    /// - Parameter keyPath: The property to read.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths of every value, as a tuple.
    ///
    /// ```swift
    /// [Point(x: 1, y: 2)].publisher.map(\.x, \.y)   // (1, 2)
    /// ```
    /// - Parameters:
    ///   - keyPath0: The first property to read.
    ///   - keyPath1: The second property to read.
    @inlinable
    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
        -> Publishers.MapKeyPath2<Self, T0, T1>
    {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths of every value, as a tuple.
    ///
    /// ```swift
    /// [Point3(x: 1, y: 2, z: 3)].publisher.map(\.x, \.y, \.z)   // (1, 2, 3)
    /// ```
    /// - Parameters:
    ///   - keyPath0: The first property to read.
    ///   - keyPath1: The second property to read.
    ///   - keyPath2: The third property to read.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// The publisher `map(_:)` with one key path returns.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The property read from each value.
        public let keyPath: KeyPath<Upstream.Output, Output>

        @inlinable
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber) { $0[keyPath: keyPath] })
        }
    }

    /// The publisher `map(_:_:)` with two key paths returns.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        public typealias Output = (Output0, Output1)
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The first property read from each value.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second property read from each value.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        @inlinable
        public init(upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber) { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) })
        }
    }

    /// The publisher `map(_:_:_:)` with three key paths returns.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        public typealias Output = (Output0, Output1, Output2)
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The first property read from each value.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second property read from each value.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The third property read from each value.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        @inlinable
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
            upstream.receive(
                subscriber:
                    MapSubscriber(downstream: subscriber) {
                        ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                    })
        }
    }
}
