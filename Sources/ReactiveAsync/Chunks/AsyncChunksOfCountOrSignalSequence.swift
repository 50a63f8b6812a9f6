extension AsyncSequence {
    /// Collects elements into chunks of `Collected` that go out when they hold `count` elements or
    /// when `signal` produces an element, whichever comes first.
    ///
    /// An empty chunk never goes out. When the base finishes, the partial chunk goes out, then the
    /// end. A failure of the base or the signal drops the partial chunk and is thrown. Cancelling
    /// the consumer ends the operator's task, the base's and the signal's iterations, with no
    /// partial chunk.
    ///
    /// - Parameters:
    ///   - count: The most elements in a chunk; must be greater than zero.
    ///   - signal: A sequence whose every element closes the current chunk.
    ///   - into: The collection type of a chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunks(ofCount: 100, or: flushes, into: ContiguousArray.self) { upload(batch) }
    /// ```
    public func chunks<Signal, Collected: RangeReplaceableCollection>(
        ofCount count: Int,
        or signal: Signal,
        into: Collected.Type
    ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal> where Collected.Element == Element {
        AsyncChunksOfCountOrSignalSequence(self, count: count, signal: signal)
    }

    /// Collects elements into arrays that go out at `count` elements or when `signal` produces an element.
    ///
    /// - Parameters:
    ///   - count: The most elements in a chunk; must be greater than zero.
    ///   - signal: A sequence whose every element closes the current chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunks(ofCount: 100, or: flushes) { upload(batch) }
    /// ```
    public func chunks<Signal>(ofCount count: Int, or signal: Signal) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> {
        chunks(ofCount: count, or: signal, into: [Element].self)
    }

    /// Collects elements into chunks of `Collected` that go out when `signal` produces an element.
    ///
    /// - Parameters:
    ///   - signal: A sequence whose every element closes the current chunk.
    ///   - into: The collection type of a chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunked(by: flushes, into: ContiguousArray.self) { upload(batch) }
    /// ```
    public func chunked<Signal, Collected: RangeReplaceableCollection>(
        by signal: Signal,
        into: Collected.Type
    ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal> where Collected.Element == Element {
        AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: signal)
    }

    /// Collects elements into arrays that go out when `signal` produces an element.
    ///
    /// - Parameter signal: A sequence whose every element closes the current chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunked(by: flushes) { upload(batch) }
    /// ```
    public func chunked<Signal>(by signal: Signal) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> {
        chunked(by: signal, into: [Element].self)
    }

    /// Collects elements into chunks of `Collected` that go out at `count` elements or when `timer` fires.
    ///
    /// - Parameters:
    ///   - count: The most elements in a chunk; must be greater than zero.
    ///   - timer: The timer whose every tick closes the current chunk.
    ///   - into: The collection type of a chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// events.chunks(ofCount: 100, or: .repeating(every: .seconds(1), clock: .continuous), into: ContiguousArray.self)
    /// ```
    public func chunks<C: Clock, Collected: RangeReplaceableCollection>(
        ofCount count: Int,
        or timer: AsyncTimerSequence<C>,
        into: Collected.Type
    ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, AsyncTimerSequence<C>> where Collected.Element == Element {
        AsyncChunksOfCountOrSignalSequence(self, count: count, signal: timer)
    }

    /// Collects elements into arrays that go out at `count` elements or when `timer` fires.
    ///
    /// - Parameters:
    ///   - count: The most elements in a chunk; must be greater than zero.
    ///   - timer: The timer whose every tick closes the current chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunks(ofCount: 100, or: .repeating(every: .seconds(1))) { upload(batch) }
    /// ```
    public func chunks<C: Clock>(
        ofCount count: Int,
        or timer: AsyncTimerSequence<C>
    ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], AsyncTimerSequence<C>> {
        chunks(ofCount: count, or: timer, into: [Element].self)
    }

    /// Collects elements into chunks of `Collected` that go out when `timer` fires.
    ///
    /// - Parameters:
    ///   - timer: The timer whose every tick closes the current chunk.
    ///   - into: The collection type of a chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// events.chunked(by: .repeating(every: .seconds(1), clock: .continuous), into: ContiguousArray.self)
    /// ```
    public func chunked<C: Clock, Collected: RangeReplaceableCollection>(
        by timer: AsyncTimerSequence<C>,
        into: Collected.Type
    ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, AsyncTimerSequence<C>> where Collected.Element == Element {
        AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: timer)
    }

    /// Collects elements into arrays that go out when `timer` fires.
    ///
    /// - Parameter timer: The timer whose every tick closes the current chunk.
    /// - Returns: The chunked sequence.
    ///
    /// ```swift
    /// for await batch in events.chunked(by: .repeating(every: .seconds(1))) { upload(batch) }
    /// ```
    public func chunked<C: Clock>(by timer: AsyncTimerSequence<C>) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], AsyncTimerSequence<C>> {
        chunked(by: timer, into: [Element].self)
    }
}

/// An asynchronous sequence of chunks of its base's elements, closed by a count or a signal.
///
/// Made by `chunks(ofCount:or:)` and `chunked(by:)` with a signal sequence or a timer. One task per
/// iteration pulls the base and the signal; it starts at the first `next()` and ends with the
/// iteration.
public struct AsyncChunksOfCountOrSignalSequence<Base: AsyncSequence, Collected: RangeReplaceableCollection, Signal: AsyncSequence>: AsyncSequence, Sendable
where Collected.Element == Base.Element, Base: Sendable, Signal: Sendable, Base.Element: Sendable, Signal.Element: Sendable {
    /// A chunk.
    public typealias Element = Collected
    /// The base's failure. A signal's failure is thrown when it is one; with a base that cannot
    /// fail, a failing signal ends the sequence instead (see ComingFromAsyncAlgorithms).
    public typealias Failure = Base.Failure

    let base: Base
    let signal: Signal
    let count: Int?

    init(_ base: Base, count: Int?, signal: Signal) {
        if let count { precondition(count > 0, "chunks(ofCount:or:) needs a count greater than zero") }
        self.base = base
        self.count = count
        self.signal = signal
    }

    /// Starts an iteration; its task starts at the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(storage: ChunksOfCountOrSignalStorage(base: base, count: count, signal: signal))
    }

    /// The iterator of an ``AsyncChunksOfCountOrSignalSequence``; dropping it ends the operator's task.
    public struct Iterator: AsyncIteratorProtocol {
        /// Holds the storage so the iteration ends when the last copy of the iterator goes.
        private final class Owner: Sendable {
            let storage: ChunksOfCountOrSignalStorage<Base, Signal>
            init(storage: ChunksOfCountOrSignalStorage<Base, Signal>) { self.storage = storage }
            deinit { storage.iteratorDeinitialized() }
        }

        private let owner: Owner

        fileprivate init(storage: ChunksOfCountOrSignalStorage<Base, Signal>) { owner = Owner(storage: storage) }

        /// The next chunk, or nil at the end or after cancellation.
        ///
        /// - Throws: The base's failure (or the signal's, when it is a `Failure`).
        public mutating func next() async throws(Failure) -> Collected? {
            do {
                guard let elements = try await owner.storage.next() else { return nil }
                var chunk = Collected()
                chunk.append(contentsOf: elements)
                return chunk
            } catch let error as Failure {
                throw error
            } catch {
                // A signal's failure that the base's `Failure` cannot carry: end instead.
                return nil
            }
        }
    }
}

@available(*, unavailable)
extension AsyncChunksOfCountOrSignalSequence.Iterator: Sendable {}
