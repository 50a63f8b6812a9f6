extension Publisher {
    /// Combines this publisher with 1 other: publishes a tuple of the latest value of each input whenever any of them publishes,
    /// once every input has published at least once.
    ///
    /// Finishes when every input has finished; the first failure fails the result and cancels the
    /// other inputs. Without demand, a burst of values yields one tuple of the latest values later.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<String, Never>()
    /// let c = a.combineLatest(b).sink { print($0) }
    /// a.send(1); b.send("x"); a.send(2)             // (1, "x") (2, "x")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Like `combineLatest` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - other: Another publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func combineLatest<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, other)) { transform($0.0, $0.1) }
    }

    /// Combines this publisher with 2 others: publishes a tuple of the latest value of each input whenever any of them publishes,
    /// once every input has published at least once.
    ///
    /// Finishes when every input has finished; the first failure fails the result and cancels the
    /// other inputs. Without demand, a burst of values yields one tuple of the latest values later.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<String, Never>()
    /// let c = a.combineLatest(b).sink { print($0) }
    /// a.send(1); b.send("x"); a.send(2)             // (1, "x") (2, "x")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Like `combineLatest` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - publisher1: Another publisher.
    ///   - publisher2: A third publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }

    /// Combines this publisher with 3 others: publishes a tuple of the latest value of each input whenever any of them publishes,
    /// once every input has published at least once.
    ///
    /// Finishes when every input has finished; the first failure fails the result and cancels the
    /// other inputs. Without demand, a burst of values yields one tuple of the latest values later.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<String, Never>()
    /// let c = a.combineLatest(b).sink { print($0) }
    /// a.send(1); b.send("x"); a.send(2)             // (1, "x") (2, "x")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R)
        -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Like `combineLatest` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - publisher1: Another publisher.
    ///   - publisher2: A third publisher.
    ///   - publisher3: A fourth publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)) { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

extension Publishers {
    /// The publisher `combineLatest` returns for 2 inputs.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B

        /// Creates a publisher that combines the inputs.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let slotA = CombinerSlot<A.Output>(index: 0)
            let slotB = CombinerSlot<B.Output>(index: 1)
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB], mode: .latest, name: "CombineLatest") { _ in
                (slotA.current, slotB.current)
            }
            handSubscription(storage, handOff: storage, to: subscriber)
            storage.attach(a, to: slotA)
            storage.attach(b, to: slotB)
        }
    }

    /// The publisher `combineLatest` returns for 3 inputs.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C

        /// Creates a publisher that combines the inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let slotA = CombinerSlot<A.Output>(index: 0)
            let slotB = CombinerSlot<B.Output>(index: 1)
            let slotC = CombinerSlot<C.Output>(index: 2)
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB, slotC], mode: .latest, name: "CombineLatest3") { _ in
                (slotA.current, slotB.current, slotC.current)
            }
            handSubscription(storage, handOff: storage, to: subscriber)
            storage.attach(a, to: slotA)
            storage.attach(b, to: slotB)
            storage.attach(c, to: slotC)
        }
    }

    /// The publisher `combineLatest` returns for 4 inputs.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D

        /// Creates a publisher that combines the inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let slotA = CombinerSlot<A.Output>(index: 0)
            let slotB = CombinerSlot<B.Output>(index: 1)
            let slotC = CombinerSlot<C.Output>(index: 2)
            let slotD = CombinerSlot<D.Output>(index: 3)
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB, slotC, slotD], mode: .latest, name: "CombineLatest4") { _ in
                (slotA.current, slotB.current, slotC.current, slotD.current)
            }
            handSubscription(storage, handOff: storage, to: subscriber)
            storage.attach(a, to: slotA)
            storage.attach(b, to: slotB)
            storage.attach(c, to: slotC)
            storage.attach(d, to: slotD)
        }
    }
}

// Equatable like Combine's: equal when the inputs are.
extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
