/// Creates an asynchronous sequence of the elements of `s1`, then those of `s2`, then those of `s3`.
///
/// Each base is iterated only after the previous one has finished; nothing runs concurrently and no
/// task is started. An error thrown by a base ends the sequence. Unlike swift-async-algorithms, a
/// chain whose consuming task was cancelled does not move on to its next base.
///
/// ```swift
/// for await value in chain([1, 2].async, [3].async, [4, 5].async) {
///     print(value)  // 1, 2, 3, 4, 5
/// }
/// ```
///
/// - Parameters:
///   - s1: The sequence whose elements come first.
///   - s2: The sequence whose elements come after those of `s1`.
///   - s3: The sequence whose elements come last.
/// - Returns: An asynchronous sequence of the elements of the three bases, one base after the other.
public func chain<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>(
    _ s1: Base1, _ s2: Base2, _ s3: Base3
) -> AsyncChain3Sequence<Base1, Base2, Base3> where Base1.Element == Base2.Element, Base1.Element == Base3.Element {
    AsyncChain3Sequence(s1, s2, s3)
}

/// An asynchronous sequence of the elements of three asynchronous sequences, one after the other.
///
/// Made by ``chain(_:_:_:)``.
public struct AsyncChain3Sequence<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>
where Base1.Element == Base2.Element, Base1.Element == Base3.Element {
    /// The type of element the sequence produces.
    public typealias Element = Base1.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base1: Base1
    let base2: Base2
    let base3: Base3

    init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
        self.base1 = base1
        self.base2 = base2
        self.base3 = base3
    }

    /// Creates an iterator over the bases, one after the other.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base1.makeAsyncIterator(), base2.makeAsyncIterator(), base3.makeAsyncIterator())
    }

    /// The iterator of a chained sequence.
    public struct Iterator: AsyncIteratorProtocol {
        var base1: Base1.AsyncIterator
        var base2: Base2.AsyncIterator
        var base3: Base3.AsyncIterator
        /// The base being iterated; `nil` once finished, also while awaiting, so an error ends it.
        var current: Int? = 0

        init(_ base1: Base1.AsyncIterator, _ base2: Base2.AsyncIterator, _ base3: Base3.AsyncIterator) {
            self.base1 = base1
            self.base2 = base2
            self.base3 = base3
        }

        /// Returns the next element of the first unfinished base; `nil` once all have finished,
        /// after an error, or when a base finishes in a cancelled task.
        ///
        /// - Throws: An error thrown by a base; after it, the iterator returns `nil`.
        public mutating func next() async rethrows -> Element? {
            while let index = current {
                current = nil
                let element: Element?
                switch index {
                case 0: element = try await base1.next()
                case 1: element = try await base2.next()
                case 2: element = try await base3.next()
                default: element = nil
                }
                if let element {
                    current = index
                    return element
                }
                // A cancelled consumer ends here: the package would go on with the next base.
                guard !Task.isCancelled, index < 2 else { return nil }
                current = index + 1
            }
            return nil
        }
    }
}

extension AsyncChain3Sequence: AsyncSequence {}

extension AsyncChain3Sequence: Sendable where Base1: Sendable, Base2: Sendable, Base3: Sendable {}
