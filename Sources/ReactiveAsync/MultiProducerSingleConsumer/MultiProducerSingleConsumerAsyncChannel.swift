/// The error a ``MultiProducerSingleConsumerAsyncChannel/Source``'s `send` throws (or passes to
/// its `onProduceMore` callback) once the channel no longer takes elements: a source finished it,
/// or its consumer ended.
public struct MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError: Error {}

/// A channel from any number of producers to one consumer, with back pressure set by a high and a
/// low watermark.
///
/// ``makeChannel(of:throwing:backpressureStrategy:)`` returns the channel, for the consumer, and a
/// ``Source``, for the producers (``Source/makeAdditionalSource()`` makes more). Sent elements are
/// buffered; once the buffer reaches the high watermark, a source's `send` asks its producer to
/// wait (the async `send` suspends; the synchronous one returns a handle for a callback), and once
/// the consumer brings it below the low watermark every waiting producer resumes.
///
/// - `finish(throwing:)` on any source, or dropping the last source, ends production: the consumer
///   still receives what is buffered, then nil (or the error).
/// - The consumer ends when its task is cancelled while it waits, or when the channel, its
///   ``elements()`` sequence (before iterating) or that sequence's iterator is dropped: every
///   waiting producer fails with ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError``,
///   later sends throw it, the buffer is dropped, and each source's termination callback is
///   called once.
///
/// ```swift
/// var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
///     of: Int.self, backpressureStrategy: .watermark(low: 2, high: 4))
/// var channel = channelAndSource.takeChannel()
/// var source = consume channelAndSource.source
/// Task {
///     for value in 1...10 { try await source.send(value) }  // waits whenever 4 are buffered
///     source.finish()
/// }
/// while let value = await channel.next() { print(value) }
/// ```
public struct MultiProducerSingleConsumerAsyncChannel<Element, Failure: Error>: ~Copyable, Sendable {
    let storage: MultiProducerSingleConsumerStorage<Element, Failure>

    /// A new channel and its first source, to take apart.
    ///
    /// ```swift
    /// var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
    ///     of: Int.self, backpressureStrategy: .watermark(low: 5, high: 10))
    /// var channel = channelAndSource.takeChannel()
    /// var source = consume channelAndSource.source
    /// ```
    @frozen
    public struct ChannelAndStream: ~Copyable {
        // @frozen, as in the package: only then may a client take `source` out by `consume`.
        @usableFromInline
        var channel: MultiProducerSingleConsumerAsyncChannel?

        /// The source.
        public var source: Source

        init(channel: consuming MultiProducerSingleConsumerAsyncChannel, source: consuming Source) {
            self.channel = .some(channel)
            self.source = source
        }

        /// Takes the channel out; call it once (a second call stops the process, as in the
        /// package).
        ///
        /// - Returns: The channel.
        public mutating func takeChannel() -> sending MultiProducerSingleConsumerAsyncChannel {
            guard let channel = channel.take() else { fatalError("takeChannel() called twice") }
            return channel
        }
    }

    /// Makes a channel and its first source.
    ///
    /// - Parameters:
    ///   - elementType: The element type.
    ///   - failureType: The error a source may finish with (see the `Never` overload below).
    ///   - backpressureStrategy: When producers wait and when they resume.
    /// - Returns: The channel, for the consumer, and a source, for the producers.
    public static func makeChannel(
        of elementType: Element.Type = Element.self,
        throwing failureType: Failure.Type,
        backpressureStrategy: Source.BackpressureStrategy
    ) -> sending ChannelAndStream {
        let storage = MultiProducerSingleConsumerStorage<Element, Failure>(
            low: backpressureStrategy.low, high: backpressureStrategy.high, weigh: backpressureStrategy.weigh)
        return ChannelAndStream(channel: MultiProducerSingleConsumerAsyncChannel(storage: storage), source: Source(storage: storage))
    }

    /// Makes a channel that cannot fail, and its first source (the package's `throwing:` default,
    /// `Never.self`, as an overload: Swift 6 warns on a default that infers a generic parameter
    /// already inferred from another).
    ///
    /// - Parameters:
    ///   - elementType: The element type.
    ///   - backpressureStrategy: When producers wait and when they resume.
    /// - Returns: The channel, for the consumer, and a source, for the producers.
    public static func makeChannel(
        of elementType: Element.Type = Element.self,
        backpressureStrategy: Source.BackpressureStrategy
    ) -> sending ChannelAndStream where Failure == Never {
        makeChannel(of: elementType, throwing: Never.self, backpressureStrategy: backpressureStrategy)
    }

    deinit {
        storage.channelDropped()
    }

    /// The next element: a buffered one at once, or waits for one.
    ///
    /// Returns nil once production has finished and the buffer is drained, and when the calling
    /// task is cancelled while waiting (which ends the channel for its producers).
    ///
    /// - Parameter actor: The caller's isolation.
    /// - Returns: The next element, or nil.
    /// - Throws: The error a source finished with, once the buffer is drained.
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
        try await storage.next()
    }
}

extension MultiProducerSingleConsumerAsyncChannel {
    /// Sends elements to the channel; made with the channel, or by
    /// ``makeAdditionalSource()``. Dropping the last source finishes the channel.
    public struct Source: ~Copyable {
        /// When producers wait and when they resume.
        public struct BackpressureStrategy: Sendable {
            let low: Int
            let high: Int
            let weigh: (@Sendable (Element) -> Int)?

            /// Producers wait once the number of buffered elements reaches `high`, and resume once
            /// the consumer brings it below `low`.
            ///
            /// - Parameters:
            ///   - low: The level below which waiting producers resume.
            ///   - high: The level from which producers are asked to wait.
            /// - Returns: The strategy.
            public static func watermark(low: Int, high: Int) -> BackpressureStrategy {
                BackpressureStrategy(low: low, high: high, weigh: nil)
            }

            /// As ``watermark(low:high:)``, with each element counting for `waterLevelForElement`
            /// of it (its size in bytes, say) instead of 1.
            ///
            /// - Parameters:
            ///   - low: The level below which waiting producers resume.
            ///   - high: The level from which producers are asked to wait.
            ///   - waterLevelForElement: An element's weight; called once per element as it is
            ///     sent, outside the channel's lock.
            /// - Returns: The strategy.
            public static func watermark(
                low: Int, high: Int, waterLevelForElement: @escaping @Sendable (borrowing Element) -> Int
            ) -> BackpressureStrategy {
                BackpressureStrategy(low: low, high: high, weigh: { waterLevelForElement($0) })
            }
        }

        /// What a synchronous send tells its producer.
        public enum SendResult: ~Copyable, Sendable {
            /// Lets a synchronous producer hear when to produce more.
            ///
            /// Call ``enqueueCallback(onProduceMore:)`` or ``cancelCallback()`` once.
            public struct CallbackHandle: Sendable, Hashable {
                let id: UInt64
                let storage: MultiProducerSingleConsumerStorage<Element, Failure>

                /// Calls `onProduceMore` once the channel asks for more (`.success`), or when it
                /// ends or the callback is cancelled (`.failure`); at once if that has happened.
                ///
                /// - Parameter onProduceMore: Called once, outside the channel's lock.
                public mutating func enqueueCallback(onProduceMore: sending @escaping (Result<Void, any Error>) -> Void) {
                    storage.enqueue(token: id, producer: .callback(onProduceMore))
                }

                /// Cancels the callback: it is called with a `CancellationError` (at once if it
                /// was enqueued, at its enqueueing otherwise).
                public mutating func cancelCallback() {
                    storage.cancelProducer(token: id)
                }

                /// Handles are equal when they are for the same send.
                public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

                /// Hashes the send's identity.
                ///
                /// - Parameter hasher: The hasher.
                public func hash(into hasher: inout Hasher) { hasher.combine(id) }
            }

            /// Produce more now.
            case produceMore
            /// Wait: enqueue a callback with this handle to hear when to produce more.
            case enqueueCallback(CallbackHandle)
        }

        let storage: MultiProducerSingleConsumerStorage<Element, Failure>
        let id: UInt64

        init(storage: MultiProducerSingleConsumerStorage<Element, Failure>) {
            self.storage = storage
            id = storage.sourceMade()
        }

        deinit {
            storage.sourceDropped()
        }

        /// Sets (or, with nil, clears) this source's callback for the channel's end: called once,
        /// after the consumer took the last element or ended; at once if that has happened.
        ///
        /// - Parameter callback: The callback; it replaces any earlier one of this source.
        public func setOnTerminationCallback(_ callback: (@Sendable () -> Void)?) {
            storage.setTermination(source: id, callback: callback)
        }

        /// A new source for another producer; the channel finishes when every source is dropped.
        ///
        /// - Returns: The new source.
        public mutating func makeAdditionalSource() -> sending Self {
            Source(storage: storage)
        }

        /// Sends elements without waiting.
        ///
        /// - Parameter sequence: The elements; a waiting consumer receives the first at once.
        /// - Returns: Whether to produce more now or wait for a callback.
        /// - Throws: ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` once the
        ///   channel takes no more.
        public mutating func send<S: Sequence>(contentsOf sequence: consuming sending S) throws -> SendResult where S.Element == Element {
            try sendResult(Array(sequence))
        }

        /// Sends an element without waiting.
        ///
        /// - Parameter element: The element; a waiting consumer receives it at once.
        /// - Returns: Whether to produce more now or wait for a callback.
        /// - Throws: ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` once the
        ///   channel takes no more.
        public mutating func send(_ element: consuming sending Element) throws -> SendResult {
            try sendResult([element])
        }

        private func sendResult(_ elements: consuming sending [Element]) throws -> SendResult {
            guard let token = try storage.send(elements) else { return .produceMore }
            return .enqueueCallback(SendResult.CallbackHandle(id: token, storage: storage))
        }

        /// Sends elements and calls `onProduceMore` once more may be produced (possibly before
        /// returning), or with the error once the channel takes no more.
        ///
        /// - Parameters:
        ///   - sequence: The elements.
        ///   - onProduceMore: Called once.
        public mutating func send<S: Sequence>(
            contentsOf sequence: consuming sending S, onProduceMore: @escaping @Sendable (Result<Void, any Error>) -> Void
        ) where S.Element == Element {
            sendThenCall(Array(sequence), onProduceMore)
        }

        /// Sends an element and calls `onProduceMore` once more may be produced (possibly before
        /// returning), or with the error once the channel takes no more.
        ///
        /// - Parameters:
        ///   - element: The element.
        ///   - onProduceMore: Called once.
        public mutating func send(_ element: consuming sending Element, onProduceMore: @escaping @Sendable (Result<Void, any Error>) -> Void) {
            sendThenCall([element], onProduceMore)
        }

        private func sendThenCall(_ elements: consuming sending [Element], _ onProduceMore: @escaping @Sendable (Result<Void, any Error>) -> Void) {
            do {
                guard let token = try storage.send(elements) else { return onProduceMore(.success(())) }
                storage.enqueue(token: token, producer: .callback(onProduceMore))
            } catch {
                onProduceMore(.failure(error))
            }
        }

        /// Sends elements, then waits while the channel asks producers to wait.
        ///
        /// - Parameter sequence: The elements.
        /// - Throws: ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` once the
        ///   channel takes no more, `CancellationError` if the task is cancelled while waiting
        ///   (the elements stay sent).
        public mutating nonisolated(nonsending) func send<S: Sequence>(contentsOf sequence: consuming sending S) async throws where S.Element == Element {
            try await storage.sendAndWait(Array(sequence))
        }

        /// Sends an element, then waits while the channel asks producers to wait.
        ///
        /// - Parameter element: The element.
        /// - Throws: ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` once the
        ///   channel takes no more, `CancellationError` if the task is cancelled while waiting
        ///   (the element stays sent).
        public mutating nonisolated(nonsending) func send(_ element: consuming sending Element) async throws {
            try await storage.sendAndWait([element])
        }

        /// Sends every element of an async sequence, one at a time, waiting as the channel asks;
        /// returns when the sequence ends. It does not finish the channel.
        ///
        /// - Parameter sequence: The elements.
        /// - Throws: The sequence's error, or what the async `send(_:)` throws.
        public mutating nonisolated(nonsending) func send<S: AsyncSequence & Sendable>(
            contentsOf sequence: consuming sending S
        ) async throws where S.Element == Element, Element: Sendable {
            for try await element in sequence {
                try await storage.sendAndWait([element])
            }
        }

        /// Ends production: the consumer receives what is buffered, then nil, or `error` thrown.
        /// Producers waiting now fail. Only the first finish of any source has an effect.
        ///
        /// - Parameter error: The error the consumer ends with, or nil.
        public consuming func finish(throwing error: Failure? = nil) {
            storage.finish(failure: error)
        }
    }
}

extension MultiProducerSingleConsumerAsyncChannel {
    /// The channel as an `AsyncSequence`, for `for await`; it allows one iterator (a later one
    /// returns nil at once, where the package stops the process).
    ///
    /// - Returns: The sequence.
    public consuming func elements() -> some (AsyncSequence<Element, Failure> & Sendable) {
        MultiProducerSingleConsumerAsyncSequence(backing: .init(storage: storage))
    }
}

/// ``MultiProducerSingleConsumerAsyncChannel/elements()``: the channel's one consumer, as a sequence.
struct MultiProducerSingleConsumerAsyncSequence<Element, Failure: Error>: AsyncSequence, Sendable {
    /// Ends the channel when the sequence goes before any iterator was made.
    final class Backing: Sendable {
        let storage: MultiProducerSingleConsumerStorage<Element, Failure>

        init(storage: MultiProducerSingleConsumerStorage<Element, Failure>) {
            self.storage = storage
            storage.sequenceMade()
        }

        deinit { storage.sequenceDropped() }
    }

    let backing: Backing

    func makeAsyncIterator() -> Iterator {
        Iterator(handle: IteratorHandle(storage: backing.storage))
    }

    /// Ends the channel when the (first) iterator goes.
    final class IteratorHandle {
        let storage: MultiProducerSingleConsumerStorage<Element, Failure>
        let isConsumer: Bool

        init(storage: MultiProducerSingleConsumerStorage<Element, Failure>) {
            self.storage = storage
            isConsumer = storage.iteratorMade()
        }

        deinit {
            if isConsumer { storage.consumerEnded() }
        }
    }

    struct Iterator: AsyncIteratorProtocol {
        let handle: IteratorHandle

        mutating func next() async throws(Failure) -> Element? {
            guard handle.isConsumer else { return nil }
            return try await handle.storage.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard handle.isConsumer else { return nil }
            return try await handle.storage.next()
        }
    }
}
