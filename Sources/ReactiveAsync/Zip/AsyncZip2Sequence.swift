/// Creates an asynchronous sequence of tuples made of the elements of two asynchronous sequences, in step.
///
/// Each element is made of one element of every base: each `next()` lets every base produce one
/// element, concurrently, and waits for all of them. The sequence finishes as soon as any base
/// finishes (elements the others produced for that tuple are dropped) and cancels the others; the
/// first error a base throws is rethrown and cancels the others.
///
/// ```swift
/// for await (name, score) in zip(names, scores) {
///     print(name, score)
/// }
/// ```
///
/// - Parameters:
///   - base1: The first asynchronous sequence.
///   - base2: The second asynchronous sequence.
/// - Returns: An asynchronous sequence of tuples, one element of each base in each.
public func zip<Base1: AsyncSequence, Base2: AsyncSequence>(_ base1: Base1, _ base2: Base2) -> AsyncZip2Sequence<Base1, Base2>
where
    Base1: Sendable, Base2: Sendable,
    Base1.Element: Sendable, Base2.Element: Sendable
{
    AsyncZip2Sequence(base1, base2)
}

/// An asynchronous sequence of tuples of the elements of two asynchronous sequences.
///
/// Made by ``zip(_:_:)``. Every iterator iterates the bases anew, each in a child task of one task
/// started with the first `next()`.
public struct AsyncZip2Sequence<Base1: AsyncSequence, Base2: AsyncSequence>: Sendable
where
    Base1: Sendable, Base2: Sendable,
    Base1.Element: Sendable, Base2.Element: Sendable
{
    /// The type of element the sequence produces: one element of each base.
    public typealias Element = (Base1.Element, Base2.Element)
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    typealias Machine = ZipStateMachine<UnsafeContinuation<[any Sendable]?, any Error>, UnsafeContinuation<Bool, Never>>

    let bases: CombinerBases2<Base1, Base2>

    /// Creates the sequence of `zip` over the bases.
    ///
    /// - Parameters:
    ///   - base1: The first asynchronous sequence.
    ///   - base2: The second asynchronous sequence.
    public init(_ base1: Base1, _ base2: Base2) {
        bases = CombinerBases2(base1: base1, base2: base2)
    }

    /// Creates an iterator; its first `next()` starts the task that iterates the bases.
    public func makeAsyncIterator() -> Iterator {
        Iterator(handle: bases.iterate(under: Machine(baseCount: 2)))
    }

    /// The iterator of the sequence.
    public struct Iterator: AsyncIteratorProtocol {
        let handle: UpstreamIteratorHandle<Machine>

        /// Returns the next tuple, or `nil` once a base has finished or the consuming task was cancelled.
        ///
        /// - Throws: The first error a base throws.
        public mutating func next() async rethrows -> Element? {
            try await handle.next().map(CombinerBases2<Base1, Base2>.tuple)
        }
    }
}

extension AsyncZip2Sequence: AsyncSequence {}
