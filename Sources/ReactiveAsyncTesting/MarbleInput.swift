import ReactiveAsync
import Synchronization

extension Duration {
    /// `count` marble steps: one step is one second of ``MarbleTest/clock``.
    ///
    /// ```swift
    /// $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    /// ```
    public static func steps(_ count: Int) -> Duration { MarbleTest.step * count }
}

/// An input of a marble test: an async sequence of the strings its diagram draws, each produced at
/// its step on the test's clock.
///
/// An element whose step has come waits for the next `next()` (nothing is dropped); `|` ends the
/// sequence, `#` throws ``MarbleFailure``; a diagram that ends without either never finishes, until
/// the consuming task is cancelled. A cancelled `next()` returns nil.
public struct MarbleInput: AsyncSequence, Sendable {
    /// One element per value of the diagram.
    public typealias Element = String
    /// A `#` throws ``MarbleFailure``.
    public typealias Failure = any Error

    let shared: Shared
    let clock: ManualClock

    /// What a run fills in once the test's diagrams are known, and what it counts.
    final class Shared: Sendable {
        let events = Mutex<[(step: Int, event: MarbleNotation.Event)]>([])
        /// `next()` calls that have not returned yet.
        let iterating = Atomic<Int>(0)
    }

    /// Starts the diagram from its beginning.
    public func makeAsyncIterator() -> Iterator {
        Iterator(events: shared.events.withLock { $0 }, shared: shared, clock: clock)
    }

    /// The iterator of a ``MarbleInput``.
    public struct Iterator: AsyncIteratorProtocol {
        private let events: [(step: Int, event: MarbleNotation.Event)]
        private let shared: Shared
        private let clock: ManualClock
        private var position = 0
        private var ended = false

        fileprivate init(events: [(step: Int, event: MarbleNotation.Event)], shared: Shared, clock: ManualClock) {
            self.events = events
            self.shared = shared
            self.clock = clock
        }

        /// The next element at its step.
        ///
        /// - Throws: ``MarbleFailure`` at a `#`.
        public mutating func next() async throws -> String? {
            shared.iterating.add(1, ordering: .relaxed)
            defer { shared.iterating.subtract(1, ordering: .relaxed) }
            if ended { return nil }
            guard position < events.count else {
                await waitForCancellation()
                ended = true
                return nil
            }
            let (step, event) = events[position]
            do {
                try await clock.sleep(until: MarbleTest.instant(ofStep: step))
            } catch {
                ended = true
                return nil
            }
            position += 1
            switch event {
            case .value(let value):
                return value
            case .finished:
                ended = true
                return nil
            case .failed:
                ended = true
                throw MarbleFailure()
            }
        }
    }
}

/// Suspends until the current task is cancelled.
private func waitForCancellation() async {
    let waiter = Mutex<(continuation: UnsafeContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let cancelled = waiter.withLock { state -> Bool in
                if !state.cancelled { state.continuation = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiter.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
