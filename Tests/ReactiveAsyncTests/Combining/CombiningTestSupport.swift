import Synchronization
import Testing

@testable import ReactiveAsync

/// The error the tests' bases throw.
struct TestFailure: Error, Equatable {
    var id = 0
}

/// Counts a base's iterators that exist: one is made when an operator starts iterating the base
/// and goes away when the operator ends that iteration.
final class IterationCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let made = Atomic<Int>(0)

    /// Iterators alive now.
    var live: Int { count.load(ordering: .acquiring) }
    /// Iterators made so far.
    var started: Int { made.load(ordering: .acquiring) }

    fileprivate func begin() {
        made.add(1, ordering: .relaxed)
        count.add(1, ordering: .relaxed)
    }

    fileprivate func end() {
        count.subtract(1, ordering: .releasing)
    }
}

/// A base whose live iterators are counted by `counter`.
struct Tracked<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
    typealias Element = Base.Element
    let base: Base
    let counter: IterationCounter

    struct Iterator: AsyncIteratorProtocol {
        private final class Token {
            let counter: IterationCounter
            init(_ counter: IterationCounter) {
                self.counter = counter
                counter.begin()
            }
            deinit { counter.end() }
        }
        var base: Base.AsyncIterator
        private let token: Token

        init(_ base: Base.AsyncIterator, _ counter: IterationCounter) {
            self.base = base
            token = Token(counter)
        }

        mutating func next() async rethrows -> Element? {
            try await base.next()
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base.makeAsyncIterator(), counter)
    }
}

extension AsyncSequence where Self: Sendable {
    /// This base with its live iterators counted by `counter`.
    func tracked(by counter: IterationCounter) -> Tracked<Self> {
        Tracked(base: self, counter: counter)
    }
}

extension AsyncSequence {
    /// All elements, in order.
    func collect() async rethrows -> [Element] {
        var result: [Element] = []
        for try await element in self { result.append(element) }
        return result
    }
}

/// Waits (without a deadline; the test's time limit bounds it) until `condition` holds.
func waitUntil(_ condition: @Sendable () -> Bool) async {
    while !condition() {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// A small deterministic random generator, so a property test's inputs are the same every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `body` with a `TaskTracker` bound, and returns the tracker.
func countingOperatorTasks(_ body: () async throws -> Void) async rethrows -> TaskTracker {
    let tracker = TaskTracker()
    try await TaskSpawning.$tracker.withValue(tracker) { try await body() }
    return tracker
}

/// Issue 42's cancellation check for a two-base combiner (`zip`, `combineLatest`): both bases
/// produce 1, the consumer's first tuple arrives, the first base is fed `extra`, and the test
/// cancels the consumer; then it waits until no base iteration and no operator task is left.
///
/// - Parameters:
///   - extra: What the first base produces after the first tuple, before the cancel.
///   - consume: The consumer's loop over the combiner of the two bases; calls `delivered` after
///     each tuple and returns how many it got.
/// - Returns: How many tuples the consumer got, and how many base iterations were made.
func tuplesUntilCancelled(
    feedingFirst extra: [Int] = [],
    _ consume: @escaping @Sendable (Tracked<AsyncStream<Int>>, Tracked<AsyncStream<Int>>, @escaping @Sendable () -> Void) async -> Int
) async -> (tuples: Int, iterationsMade: Int) {
    let counter = IterationCounter()
    let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
    let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
    let (delivered, deliveredInput) = AsyncStream.makeStream(of: Void.self)
    let bases = (first.tracked(by: counter), second.tracked(by: counter))
    var tuples = 0
    let tasks = await countingOperatorTasks {
        let consumer = Task { await consume(bases.0, bases.1) { deliveredInput.yield() } }
        firstInput.yield(1)
        secondInput.yield(1)
        var signals = delivered.makeAsyncIterator()
        await signals.next()
        for value in extra { firstInput.yield(value) }
        consumer.cancel()
        tuples = await consumer.value
    }
    await waitUntil { counter.live == 0 && tasks.running == 0 }
    return (tuples, counter.started)
}

/// An executor that counts the jobs it runs and runs each at once on the calling thread.
final class JobCountingExecutor: TaskExecutor, Sendable {
    let jobs = Atomic<Int>(0)

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.add(1, ordering: .relaxed)
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
