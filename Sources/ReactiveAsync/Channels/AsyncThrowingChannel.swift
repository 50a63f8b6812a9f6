/// A channel that can fail, for sending elements from one task to another with back pressure.
///
/// It behaves as ``AsyncChannel`` and can also end with an error: `fail(_:)` resumes every
/// suspended operation; the consumers waiting at that moment throw the error (if none is, the
/// next call to `next()` throws it), and after that iteration returns nil.
///
/// ```swift
/// let channel = AsyncThrowingChannel<Int, Error>()
/// Task {
///     await channel.send(1)
///     channel.fail(MyError())
/// }
/// do {
///     for try await value in channel { print(value) }
/// } catch {
///     print("failed:", error)
/// }
/// ```
public final class AsyncThrowingChannel<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// The type of element the channel carries.
    public typealias Element = Element
    /// The iterator type.
    public typealias AsyncIterator = Iterator

    let storage = ChannelStorage()

    /// Creates a channel with no element in flight.
    public init() {}

    /// Sends an element to a consumer, and returns once a consumer has taken it, the channel has
    /// terminated, or the calling task is cancelled (then the element is dropped).
    ///
    /// - Parameter element: The element to deliver.
    public func send(_ element: Element) async {
        await storage.send(element)
    }

    /// Ends the channel with an error; it does not suspend. Suspended sends resume (their
    /// elements are dropped); suspended consumers throw `error`, or the next `next()` does.
    ///
    /// - Parameter error: The error the iteration throws.
    public func fail(_ error: Error) where Failure == Error {
        storage.finish(failure: error)
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

    /// The iterator of an ``AsyncThrowingChannel``.
    public struct Iterator: AsyncIteratorProtocol {
        let storage: ChannelStorage

        /// Waits for the next element a producer sends.
        ///
        /// - Returns: The next element; nil once the channel finished, after its failure was
        ///   thrown, or when the calling task is cancelled.
        /// - Throws: The error passed to `fail(_:)`, once.
        public mutating func next() async throws -> Element? {
            try await storage.next().get().map { unerased($0, as: Element.self) }
        }
    }
}

@available(*, unavailable)
extension AsyncThrowingChannel.Iterator: Sendable {}
