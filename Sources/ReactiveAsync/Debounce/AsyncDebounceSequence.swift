extension AsyncSequence {
    /// Emits an element only after `interval` has passed on `clock` without a newer one; the
    /// newest element wins.
    ///
    /// The base is pulled only while the consumer waits for an element. When the base finishes,
    /// the pending element (if any) is emitted at once and the sequence then finishes; when it
    /// fails, the pending element is dropped and the failure is thrown. Cancelling the consuming
    /// task ends the operator's task and returns `nil`.
    ///
    /// - Parameters:
    ///   - interval: The quiet time an element must survive.
    ///   - tolerance: Passed to the clock's `sleep`.
    ///   - clock: The clock that measures the quiet time.
    /// - Returns: The debounced sequence.
    ///
    /// ```swift
    /// for await query in keystrokes.debounce(for: .milliseconds(300), clock: .continuous) {
    ///     search(query)
    /// }
    /// ```
    public func debounce<C: Clock>(
        for interval: C.Instant.Duration,
        tolerance: C.Instant.Duration? = nil,
        clock: C
    ) -> AsyncDebounceSequence<Self, C> where Self: Sendable, Self.Element: Sendable {
        AsyncDebounceSequence(self, interval: interval, tolerance: tolerance, clock: clock)
    }

    /// Emits an element only after `interval` has passed on the continuous clock without a newer one.
    ///
    /// - Parameters:
    ///   - interval: The quiet time an element must survive.
    ///   - tolerance: Passed to the clock's `sleep`.
    /// - Returns: The debounced sequence.
    ///
    /// ```swift
    /// for await query in keystrokes.debounce(for: .milliseconds(300)) { search(query) }
    /// ```
    public func debounce(
        for interval: Duration,
        tolerance: Duration? = nil
    ) -> AsyncDebounceSequence<Self, ContinuousClock> where Self: Sendable, Self.Element: Sendable {
        debounce(for: interval, tolerance: tolerance, clock: .continuous)
    }
}

/// An asynchronous sequence that emits the latest element of its base after a quiet period.
///
/// Made by `debounce(for:tolerance:clock:)`. One task per iteration pulls the base and runs the
/// clock; it starts at the first `next()` and ends with the iteration.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: Sendable where Base.Element: Sendable {
    private let base: Base
    private let interval: C.Instant.Duration
    private let tolerance: C.Instant.Duration?
    private let clock: C

    init(_ base: Base, interval: C.Instant.Duration, tolerance: C.Instant.Duration?, clock: C) {
        self.base = base
        self.interval = interval
        self.tolerance = tolerance
        self.clock = clock
    }
}

extension AsyncDebounceSequence: AsyncSequence {
    /// The base's element.
    public typealias Element = Base.Element
    /// The base's failure: a base that cannot fail makes a debounce that cannot fail.
    public typealias Failure = Base.Failure

    /// Starts an iteration; its task starts at the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(storage: DebounceStorage(base: base, interval: interval, tolerance: tolerance, clock: clock))
    }

    /// The iterator of an ``AsyncDebounceSequence``; dropping it ends the operator's task.
    public struct Iterator: AsyncIteratorProtocol {
        /// Holds the storage so the iteration ends when the last copy of the iterator goes.
        private final class Owner: Sendable {
            let storage: DebounceStorage<Base, C>
            init(storage: DebounceStorage<Base, C>) { self.storage = storage }
            deinit { storage.iteratorDeinitialized() }
        }

        private let owner: Owner

        fileprivate init(storage: DebounceStorage<Base, C>) { owner = Owner(storage: storage) }

        /// The next debounced element, or nil at the end or after cancellation.
        ///
        /// - Throws: The base's failure.
        public mutating func next() async throws(Failure) -> Element? {
            try await Self.next(owner.storage)
        }

        /// The next debounced element, or nil at the end or after cancellation.
        ///
        /// - Parameter actor: Unused: the element is produced by the operator's task.
        /// - Throws: The base's failure.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await Self.next(owner.storage)
        }

        private static func next(_ storage: DebounceStorage<Base, C>) async throws(Failure) -> Element? {
            do {
                return try await storage.next()
            } catch let failure as Failure {
                throw failure
            } catch {
                // The storage throws only what the base threw, and that is a `Failure`.
                preconditionFailure("debounce's base threw \(error), which is not its Failure")
            }
        }
    }
}

@available(*, unavailable)
extension AsyncDebounceSequence.Iterator: Sendable {}
