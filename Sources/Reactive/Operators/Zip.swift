extension Publisher {
    /// Combines this publisher with 1 other: pairs values by position: the first of each input, then the second of each, and so on.
    ///
    /// Finishes as soon as an input has finished and none of its values wait to be paired; the
    /// first failure fails the result and cancels the other inputs.
    ///
    /// ```swift
    /// let numbers = [1, 2, 3].publisher
    /// let letters = ["a", "b"].publisher
    /// numbers.zip(letters).sink { print($0) }     // (1, "a") (2, "b")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P>
    where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Like `zip` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - other: Another publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func zip<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T) -> Publishers.Map<Publishers.Zip<Self, P>, T>
    where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip(self, other)) { transform($0.0, $0.1) }
    }

    /// Combines this publisher with 2 others: pairs values by position: the first of each input, then the second of each, and so on.
    ///
    /// Finishes as soon as an input has finished and none of its values wait to be paired; the
    /// first failure fails the result and cancels the other inputs.
    ///
    /// ```swift
    /// let numbers = [1, 2, 3].publisher
    /// let letters = ["a", "b"].publisher
    /// numbers.zip(letters).sink { print($0) }     // (1, "a") (2, "b")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Like `zip` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - publisher1: Another publisher.
    ///   - publisher2: A third publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }

    /// Combines this publisher with 3 others: pairs values by position: the first of each input, then the second of each, and so on.
    ///
    /// Finishes as soon as an input has finished and none of its values wait to be paired; the
    /// first failure fails the result and cancels the other inputs.
    ///
    /// ```swift
    /// let numbers = [1, 2, 3].publisher
    /// let letters = ["a", "b"].publisher
    /// numbers.zip(letters).sink { print($0) }     // (1, "a") (2, "b")
    /// ```
    /// - Returns: A publisher of tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Like `zip` without a transform, then maps each tuple with `transform`.
    /// - Parameters:
    ///   - publisher1: Another publisher.
    ///   - publisher2: A third publisher.
    ///   - publisher3: A fourth publisher.
    ///   - transform: Makes one output value from one value of each input.
    /// - Returns: A publisher of the transformed tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip4(self, publisher1, publisher2, publisher3)) { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

extension Publishers {
    /// The publisher `zip` returns for 2 inputs.
    public struct Zip<A: Publisher, B: Publisher>: Publisher
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
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB], mode: .zip, name: "Zip") { empty in
                (slotA.take(&empty), slotB.take(&empty))
            }
            handSubscription(storage, handOff: storage, to: subscriber)
            storage.attach(a, to: slotA)
            storage.attach(b, to: slotB)
        }
    }

    /// The publisher `zip` returns for 3 inputs.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB, slotC], mode: .zip, name: "Zip3") { empty in
                (slotA.take(&empty), slotB.take(&empty), slotC.take(&empty))
            }
            handSubscription(storage, handOff: storage, to: subscriber)
            storage.attach(a, to: slotA)
            storage.attach(b, to: slotB)
            storage.attach(c, to: slotC)
        }
    }

    /// The publisher `zip` returns for 4 inputs.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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
            let storage = CombinerEngine(downstream: subscriber, slots: [slotA, slotB, slotC, slotD], mode: .zip, name: "Zip4") { empty in
                (slotA.take(&empty), slotB.take(&empty), slotC.take(&empty), slotD.take(&empty))
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
extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
