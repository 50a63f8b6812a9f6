extension Publisher {
    /// Merges this publisher's values with another's, as they arrive.
    ///
    /// The result finishes when both have finished; the first failure fails it and cancels the
    /// other. Values are delivered one at a time (never concurrently) and never beyond demand.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = a.merge(with: b).sink { print($0) }
    /// a.send(1); b.send(2); a.send(3)      // 1 2 3
    /// ```
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A publisher of both publishers' values.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Merges this publisher's values with those of 2 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Merges this publisher's values with those of 3 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure {
        Publishers.Merge4(self, b, c, d)
    }

    /// Merges this publisher's values with those of 4 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output,
        E.Failure == Failure
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Merges this publisher's values with those of 5 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F)
        -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output,
        E.Failure == Failure, F.Output == Output, F.Failure == Failure
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Merges this publisher's values with those of 6 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G)
        -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output,
        E.Failure == Failure, F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Merges this publisher's values with those of 7 others, as they arrive.
    ///
    /// Finishes when all have finished; the first failure fails the result and cancels the rest.
    /// - Returns: A publisher of every input's values.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output,
        E.Failure == Failure, F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }

    /// Merges this publisher with another of the same type.
    ///
    /// ```swift
    /// let merged = Just(1).merge(with: Just(2))   // Publishers.MergeMany<Just<Int>>
    /// ```
    /// - Parameter other: A publisher of the same type.
    /// - Returns: A `MergeMany` of both.
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// The publisher `merge(with:)` returns: the values of 2 publishers, as they arrive.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where B.Output == A.Output, B.Failure == A.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(2)
            guard inners.count == 2 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
        }
    }

    /// The publisher `merge(with:_:)` returns: the values of 3 publishers, as they arrive.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge3")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(3)
            guard inners.count == 3 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
        }
    }

    /// The publisher `merge(with:_:_:)` returns: the values of 4 publishers, as they arrive.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure, D.Output == A.Output, D.Failure == A.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge4")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(4)
            guard inners.count == 4 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
            d.subscribe(inners[3])
        }
    }

    /// The publisher `merge(with:_:_:_:)` returns: the values of 5 publishers, as they arrive.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure, D.Output == A.Output, D.Failure == A.Failure,
        E.Output == A.Output, E.Failure == A.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D
        /// Input 5.
        public let e: E

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge5")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(5)
            guard inners.count == 5 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
            d.subscribe(inners[3])
            e.subscribe(inners[4])
        }
    }

    /// The publisher `merge(with:_:_:_:_:)` returns: the values of 6 publishers, as they arrive.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure, D.Output == A.Output, D.Failure == A.Failure,
        E.Output == A.Output, E.Failure == A.Failure, F.Output == A.Output, F.Failure == A.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D
        /// Input 5.
        public let e: E
        /// Input 6.
        public let f: F

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge6")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(6)
            guard inners.count == 6 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
            d.subscribe(inners[3])
            e.subscribe(inners[4])
            f.subscribe(inners[5])
        }
    }

    /// The publisher `merge(with:_:_:_:_:_:)` returns: the values of 7 publishers, as they arrive.
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>: Publisher
    where
        B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure, D.Output == A.Output, D.Failure == A.Failure,
        E.Output == A.Output, E.Failure == A.Failure, F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D
        /// Input 5.
        public let e: E
        /// Input 6.
        public let f: F
        /// Input 7.
        public let g: G

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge7")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(7)
            guard inners.count == 7 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
            d.subscribe(inners[3])
            e.subscribe(inners[4])
            f.subscribe(inners[5])
            g.subscribe(inners[6])
        }
    }

    /// The publisher `merge(with:_:_:_:_:_:_:)` returns: the values of 8 publishers, as they arrive.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher
    where
        B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure, D.Output == A.Output, D.Failure == A.Failure,
        E.Output == A.Output, E.Failure == A.Failure, F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure,
        H.Output == A.Output, H.Failure == A.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Input 1.
        public let a: A
        /// Input 2.
        public let b: B
        /// Input 3.
        public let c: C
        /// Input 4.
        public let d: D
        /// Input 5.
        public let e: E
        /// Input 6.
        public let f: F
        /// Input 7.
        public let g: G
        /// Input 8.
        public let h: H

        /// Creates a publisher of the values of all inputs.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "Merge8")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(8)
            guard inners.count == 8 else { return }
            a.subscribe(inners[0])
            b.subscribe(inners[1])
            c.subscribe(inners[2])
            d.subscribe(inners[3])
            e.subscribe(inners[4])
            f.subscribe(inners[5])
            g.subscribe(inners[6])
            h.subscribe(inners[7])
        }
    }

    /// The publisher `merge(with:)` returns for publishers of one type, or any number of them.
    ///
    /// ```swift
    /// Publishers.MergeMany([Just(1), Just(2), Just(3)])   // 1 2 3
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The merged publishers.
        public let publishers: [Upstream]

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) { publishers = upstream }

        /// Creates a merge of a sequence of publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream { publishers = Array(upstream) }

        /// A merge with one more publisher.
        @inlinable
        public func merge(with other: Upstream) -> MergeMany<Upstream> { MergeMany(publishers + [other]) }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: false, maxPublishers: .unlimited, exclusive: false, name: "MergeMany")
            handSubscription(storage, handOff: storage, to: subscriber)
            let inners = storage.makeInners(publishers.count)
            guard inners.count == publishers.count else { return }
            for (publisher, inner) in Swift.zip(publishers, inners) { publisher.subscribe(inner) }
            // Nothing to wait for when there are no inputs.
            if publishers.isEmpty { storage.finishIfDone() }
        }
    }
}

// Equatable like Combine's: two merges are equal when their inputs are.
extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

// Merging a merge makes the next arity instead of nesting, as in Combine:
// `a.merge(with: b).merge(with: c)` is a `Merge3<A, B, C>`, not a `Merge<Merge<A, B>, C>`.

extension Publishers.Merge {
    /// Merges one more publisher, giving a `Merge3` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge3` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge3(a, b, other)
    }
}

extension Publishers.Merge3 {
    /// Merges one more publisher, giving a `Merge4` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge4` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge4(a, b, c, other)
    }
}

extension Publishers.Merge4 {
    /// Merges one more publisher, giving a `Merge5` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge5` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge5(a, b, c, d, other)
    }
}

extension Publishers.Merge5 {
    /// Merges one more publisher, giving a `Merge6` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge6` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge6(a, b, c, d, e, other)
    }
}

extension Publishers.Merge6 {
    /// Merges one more publisher, giving a `Merge7` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge7` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge7(a, b, c, d, e, f, other)
    }
}

extension Publishers.Merge7 {
    /// Merges one more publisher, giving a `Merge8` rather than a nested merge.
    /// - Parameter other: Another publisher of the same output and failure.
    /// - Returns: A `Merge8` of this merge's inputs and `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where P.Output == A.Output, P.Failure == A.Failure {
        Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
}
