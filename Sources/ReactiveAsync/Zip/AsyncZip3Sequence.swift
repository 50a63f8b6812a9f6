/// Creates an asynchronous sequence of tuples made of the elements of three asynchronous sequences, in step.
///
/// Each element is made of one element of every base: each `next()` lets every base produce one
/// element, concurrently, and waits for all of them. The sequence finishes as soon as any base
/// finishes (elements the others produced for that tuple are dropped) and cancels the others; the
/// first error a base throws is rethrown and cancels the others.
///
/// ```swift
/// for await (name, score, rank) in zip(names, scores, ranks) {
///     print(name, score, rank)
/// }
/// ```
///
/// - Parameters:
///   - base1: The first asynchronous sequence.
///   - base2: The second asynchronous sequence.
///   - base3: The third asynchronous sequence.
/// - Returns: An asynchronous sequence of tuples, one element of each base in each.
public func zip<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>(_ base1: Base1, _ base2: Base2, _ base3: Base3) -> AsyncZip3Sequence<
    Base1, Base2, Base3
>
where
    Base1: Sendable, Base2: Sendable, Base3: Sendable,
    Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable
{
    AsyncZip3Sequence(base1, base2, base3)
}

/// An asynchronous sequence of tuples of the elements of three asynchronous sequences.
///
/// Made by ``zip(_:_:_:)``. Every iterator iterates the bases anew, each in a child task of one task
/// started with the first `next()`.
public struct AsyncZip3Sequence<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>: Sendable
where
    Base1: Sendable, Base2: Sendable, Base3: Sendable,
    Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable
{
    /// The type of element the sequence produces: one element of each base.
    public typealias Element = (Base1.Element, Base2.Element, Base3.Element)
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    typealias Machine = ZipStateMachine<UnsafeContinuation<[any Sendable]?, any Error>, UnsafeContinuation<Bool, Never>>

    let bases: CombinerBases3<Base1, Base2, Base3>

    /// Creates the sequence of `zip` over the bases.
    ///
    /// - Parameters:
    ///   - base1: The first asynchronous sequence.
    ///   - base2: The second asynchronous sequence.
    ///   - base3: The third asynchronous sequence.
    public init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
        bases = CombinerBases3(base1: base1, base2: base2, base3: base3)
    }

    /// Creates an iterator; its first `next()` starts the task that iterates the bases.
    public func makeAsyncIterator() -> Iterator {
        Iterator(handle: bases.iterate(under: Machine(baseCount: 3)))
    }

    /// The iterator of the sequence.
    public struct Iterator: AsyncIteratorProtocol {
        let handle: UpstreamIteratorHandle<Machine>

        /// Returns the next tuple, or `nil` once a base has finished or the consuming task was cancelled.
        ///
        /// - Throws: The first error a base throws.
        public mutating func next() async rethrows -> Element? {
            try await handle.next().map(CombinerBases3<Base1, Base2, Base3>.tuple)
        }
    }
}

extension AsyncZip3Sequence: AsyncSequence {}
