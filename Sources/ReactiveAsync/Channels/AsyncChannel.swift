/// A channel for sending elements from one task to another with back pressure.
///
/// `send(_:)` suspends until a consumer takes the element with `next()`, so production never runs
/// ahead of consumption. Several tasks may send and several may iterate at once; each element
/// goes to exactly one consumer, first come first served. `finish()` resumes every suspended
/// `send` and `next` at once; later sends return at once and later iterations end.
/// A cancelled `send` returns without delivering its element; a cancelled `next()` returns nil;
/// other tasks' operations stay active.
///
/// ```swift
/// let channel = AsyncChannel<String>()
/// Task {
///     for line in ["a", "b"] { await channel.send(line) }
///     channel.finish()
/// }
/// for await line in channel { print(line) }
/// ```
public final class AsyncChannel<Element: Sendable>: AsyncSequence, Sendable {
    /// The type of element the channel carries.
    public typealias Element = Element
    /// The iterator type.
    public typealias AsyncIterator = Iterator

    let storage = ChannelStorage()

    /// Creates a channel with no element in flight.
    public init() {}

    /// Sends an element to a consumer, and returns once a consumer has taken it, the channel has
    /// finished, or the calling task is cancelled (then the element is dropped).
    ///
    /// - Parameter element: The element to deliver.
    public func send(_ element: Element) async {
        await storage.send(element)
    }

    /// Ends the channel: resumes every suspended `send` and `next()`; every later `next()`
    /// returns nil and every later `send` returns at once.
    public func finish() {
        storage.finish(failure: nil)
    }

    /// Creates an iterator; several iterators may take elements from one channel concurrently.
    ///
    /// - Returns: An iterator over the channel's elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(storage: storage)
    }

    /// The iterator of an ``AsyncChannel``.
    public struct Iterator: AsyncIteratorProtocol {
        let storage: ChannelStorage

        /// Waits for the next element a producer sends; nil once the channel finished or when
        /// the calling task is cancelled.
        ///
        /// - Returns: The next element, or nil.
        public mutating func next() async -> Element? {
            switch await storage.next() {
            case .success(let element): return element.map { unerased($0, as: Element.self) }
            case .failure(let error): preconditionFailure("an AsyncChannel was finished with \(error), and only AsyncThrowingChannel fails")
            }
        }
    }
}

@available(*, unavailable)
extension AsyncChannel.Iterator: Sendable {}
