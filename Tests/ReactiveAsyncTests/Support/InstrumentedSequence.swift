@testable import ReactiveAsync

/// Counts what consumers of a base sequence leave behind: iterators still alive (an operator's
/// task holds its base's iterator until the task ends) and calls to `next()` still running.
///
/// After a cancellation both must come back to zero: `await probe.settled()` waits (a watchdog,
/// not a timing assertion) and returns whether they did.
final class IterationProbe: Sendable {
    private struct Counts {
        var made = 0
        var alive = 0
        var inNext = 0
        var nextCalls = 0
    }

    private let counts = StateLock(Counts())

    init() {}

    /// Iterators made so far.
    var iteratorsMade: Int { counts.withLock { $0.made } }
    /// Iterators made and not yet released.
    var liveIterators: Int { counts.withLock { $0.alive } }
    /// Calls to the base's `next()` that have not returned.
    var iteratingNow: Int { counts.withLock { $0.inNext } }
    /// Calls to the base's `next()` so far.
    var nextCalls: Int { counts.withLock { $0.nextCalls } }

    fileprivate func iteratorMade() {
        counts.withLock {
            $0.made += 1; $0.alive += 1
        }
    }
    fileprivate func iteratorReleased() { counts.withLock { $0.alive -= 1 } }
    fileprivate func nextStarted() {
        counts.withLock {
            $0.inNext += 1; $0.nextCalls += 1
        }
    }
    fileprivate func nextEnded() { counts.withLock { $0.inNext -= 1 } }

    /// Waits until no iterator is alive and no `next()` runs, looking every millisecond, at most
    /// `checks` times (a watchdog, not a timing assertion).
    ///
    /// The bound counts looks, not seconds: in the parallel unit run, synchronous tests can hold
    /// both threads of the cooperative pool (two on a 2-core machine) for seconds, and a wait
    /// woken after a wall-clock deadline used to give up without looking again, while the task it
    /// waited for had not yet had a turn (`FlatMapLatestTests.switchesToLatest` failed so in CI).
    ///
    /// - Returns: Whether everything the consumers started has ended.
    func settled(checks: Int = 10_000) async -> Bool {
        for _ in 0..<checks {
            if isSettled { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return isSettled
    }

    private var isSettled: Bool { counts.withLock { $0.alive == 0 && $0.inNext == 0 } }
}

/// A base sequence that reports to an `IterationProbe`: each iterator's life and each `next()`.
///
/// ```swift
/// let probe = IterationProbe()
/// let base = InstrumentedSequence(stream, probe: probe)
/// … consume base.buffer(policy: .unbounded), cancel …
/// #expect(await probe.settled())
/// ```
struct InstrumentedSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
    typealias Element = Base.Element
    typealias Failure = Base.Failure

    let base: Base
    let probe: IterationProbe

    init(_ base: Base, probe: IterationProbe) {
        self.base = base
        self.probe = probe
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), lifetime: Lifetime(probe: probe))
    }

    final class Lifetime {
        let probe: IterationProbe
        init(probe: IterationProbe) {
            self.probe = probe
            probe.iteratorMade()
        }
        deinit { probe.iteratorReleased() }
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = Base.Failure
        var base: Base.AsyncIterator
        let lifetime: Lifetime

        mutating func next() async throws(Base.Failure) -> Element? {
            try await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            lifetime.probe.nextStarted()
            defer { lifetime.probe.nextEnded() }
            return try await base.next(isolation: actor)
        }
    }
}

/// An error tests throw from bases and channels.
struct TestError: Error, Equatable {
    var tag = 0
}

/// Collects every element of `sequence`, and the error that ended it if any.
func collect<S: AsyncSequence>(_ sequence: S) async -> (elements: [S.Element], error: (any Error)?) {
    var iterator = sequence.makeAsyncIterator()
    return await collect(from: &iterator)
}

/// Collects what `iterator` gives until its end, and the error that ended it if any.
func collect<I: AsyncIteratorProtocol>(from iterator: inout I) async -> (elements: [I.Element], error: (any Error)?) {
    var elements: [I.Element] = []
    do {
        while let element = try await iterator.next() { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}
