/// Creates an asynchronous sequence of the elements of three asynchronous sequences, in the order
/// they arrive.
///
/// The bases are iterated concurrently, each in a child task, while the consumer waits for an
/// element. The merged sequence finishes when all three bases have finished; the first error thrown by
/// a base is rethrown (after the elements already received) and cancels the other bases.
///
/// ```swift
/// for await value in merge(keyPresses, mouseClicks) {
///     print(value)
/// }
/// ```
///
/// - Parameters:
///   - base1: The first asynchronous sequence.
///   - base2: The second asynchronous sequence.
///   - base3: The third asynchronous sequence.
/// - Returns: An asynchronous sequence of the elements of all three bases.
public func merge<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>(_ base1: Base1, _ base2: Base2, _ base3: Base3) -> AsyncMerge3Sequence<
    Base1, Base2, Base3
>
where
    Base1.Element == Base2.Element, Base1.Element == Base3.Element,
    Base1: Sendable, Base2: Sendable, Base3: Sendable,
    Base1.Element: Sendable
{
    AsyncMerge3Sequence(base1, base2, base3)
}

/// An asynchronous sequence of the elements of three asynchronous sequences, in the order they arrive.
///
/// Made by ``merge(_:_:_:)``. Every iterator iterates the bases anew.
public struct AsyncMerge3Sequence<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>: Sendable
where
    Base1.Element == Base2.Element, Base1.Element == Base3.Element,
    Base1: Sendable, Base2: Sendable, Base3: Sendable,
    Base1.Element: Sendable
{
    /// The type of element the sequence produces: the bases' element.
    public typealias Element = Base1.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    // The elements pass through the machine type-erased: a machine type that does not depend on
    // the bases runs specialised (see `UpstreamPort`).
    typealias Machine = MergeStateMachine<any Sendable, UnsafeContinuation<(any Sendable)?, any Error>, UnsafeContinuation<Bool, Never>>

    let base1: Base1
    let base2: Base2
    let base3: Base3

    /// Creates a sequence that merges `base1`, `base2` and `base3`.
    ///
    /// - Parameters:
    ///   - base1: The first asynchronous sequence.
    ///   - base2: The second asynchronous sequence.
    ///   - base3: The third asynchronous sequence.
    public init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
        self.base1 = base1
        self.base2 = base2
        self.base3 = base3
    }

    /// Creates an iterator; iterating starts the task that iterates the bases.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            handle: UpstreamIteratorHandle(
                Machine(baseCount: 3),
                producers: [
                    erasingProducer(base1), erasingProducer(base2),
                    erasingProducer(base3),
                ]))
    }

    /// The iterator of a merged sequence.
    public struct Iterator: AsyncIteratorProtocol {
        let handle: UpstreamIteratorHandle<Machine>

        /// Returns the next element of any base, or `nil` once both have finished or the
        /// consuming task was cancelled.
        ///
        /// - Throws: The first error a base throws.
        public mutating func next() async rethrows -> Element? {
            guard let value = try await handle.next() else { return nil }
            return unerased(value, as: Element.self)
        }
    }
}

extension AsyncMerge3Sequence: AsyncSequence {}
