/// Creates an asynchronous sequence of the elements of two asynchronous sequences, in the order
/// they arrive.
///
/// The bases are iterated concurrently, each in a child task, while the consumer waits for an
/// element. The merged sequence finishes when both bases have finished; the first error thrown by
/// a base is rethrown (after the elements already received) and cancels the other base.
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
/// - Returns: An asynchronous sequence of the elements of both bases.
public func merge<Base1: AsyncSequence, Base2: AsyncSequence>(_ base1: Base1, _ base2: Base2) -> AsyncMerge2Sequence<Base1, Base2>
where
    Base1.Element == Base2.Element,
    Base1: Sendable, Base2: Sendable,
    Base1.Element: Sendable
{
    AsyncMerge2Sequence(base1, base2)
}

/// An asynchronous sequence of the elements of two asynchronous sequences, in the order they arrive.
///
/// Made by ``merge(_:_:)``. Every iterator iterates the bases anew.
public struct AsyncMerge2Sequence<Base1: AsyncSequence, Base2: AsyncSequence>: Sendable
where
    Base1.Element == Base2.Element,
    Base1: Sendable, Base2: Sendable,
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

    /// Creates a sequence that merges `base1` and `base2`.
    ///
    /// - Parameters:
    ///   - base1: The first asynchronous sequence.
    ///   - base2: The second asynchronous sequence.
    public init(_ base1: Base1, _ base2: Base2) {
        self.base1 = base1
        self.base2 = base2
    }

    /// Creates an iterator; iterating starts the task that iterates the bases.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            handle: UpstreamIteratorHandle(
                Machine(baseCount: 2),
                producers: [erasingProducer(base1), erasingProducer(base2)]))
    }

    /// The iterator of a merged sequence.
    public struct Iterator: AsyncIteratorProtocol {
        let handle: UpstreamIteratorHandle<Machine>

        /// Returns the next element of either base, or `nil` once both have finished or the
        /// consuming task was cancelled.
        ///
        /// - Throws: The first error a base throws.
        public mutating func next() async rethrows -> Element? {
            guard let value = try await handle.next() else { return nil }
            return unerased(value, as: Element.self)
        }
    }
}

extension AsyncMerge2Sequence: AsyncSequence {}
