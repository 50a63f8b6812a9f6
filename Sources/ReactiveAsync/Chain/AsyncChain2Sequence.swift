/// Creates an asynchronous sequence of the elements of `s1`, then those of `s2`.
///
/// The second base is iterated only after the first has finished; nothing runs concurrently and no
/// task is started. An error thrown by either base ends the sequence. Unlike swift-async-algorithms,
/// a chain whose consuming task was cancelled does not move on to its next base.
///
/// ```swift
/// let preamble = ["// Some header to add as a preamble"].async
/// for try await line in chain(preamble, url.lines) {
///     print(line)
/// }
/// ```
///
/// - Parameters:
///   - s1: The sequence whose elements come first.
///   - s2: The sequence whose elements come after those of `s1`.
/// - Returns: An asynchronous sequence of the elements of `s1` followed by those of `s2`.
public func chain<Base1: AsyncSequence, Base2: AsyncSequence>(_ s1: Base1, _ s2: Base2) -> AsyncChain2Sequence<Base1, Base2>
where Base1.Element == Base2.Element {
    AsyncChain2Sequence(s1, s2)
}

/// An asynchronous sequence of the elements of one asynchronous sequence followed by another's.
///
/// Made by ``chain(_:_:)``.
public struct AsyncChain2Sequence<Base1: AsyncSequence, Base2: AsyncSequence> where Base1.Element == Base2.Element {
    /// The type of element the sequence produces.
    public typealias Element = Base1.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base1: Base1
    let base2: Base2

    init(_ base1: Base1, _ base2: Base2) {
        self.base1 = base1
        self.base2 = base2
    }

    /// Creates an iterator over the first base, then the second.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base1.makeAsyncIterator(), base2.makeAsyncIterator())
    }

    /// The iterator of a chained sequence.
    public struct Iterator: AsyncIteratorProtocol {
        var base1: Base1.AsyncIterator
        var base2: Base2.AsyncIterator
        /// The base being iterated; `nil` once finished, also while awaiting, so an error ends it.
        var current: Int? = 0

        init(_ base1: Base1.AsyncIterator, _ base2: Base2.AsyncIterator) {
            self.base1 = base1
            self.base2 = base2
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
                default: element = nil
                }
                if let element {
                    current = index
                    return element
                }
                // A cancelled consumer ends here: the package would go on with the next base.
                guard !Task.isCancelled, index < 1 else { return nil }
                current = index + 1
            }
            return nil
        }
    }
}

extension AsyncChain2Sequence: AsyncSequence {}

extension AsyncChain2Sequence: Sendable where Base1: Sendable, Base2: Sendable {}
