import ReactiveAsync
import Testing

/// Written against swift-async-algorithms 1.x's documented signatures (its Guides/Debounce.md,
/// Throttle.md, Timer.md, Chunked.md and the public declarations in its sources): if this file
/// compiles with `import ReactiveAsync`, code written for `import AsyncAlgorithms` does too.
private func requireSendable<T: Sendable>(_: T) {}

@Suite struct APISurfaceTests {
    @Test("the time operators' public API has the package's names, generic parameters and shapes")
    func compiles() async throws {
        let base = AsyncStream<Int> { $0.finish() }
        let throwingBase = AsyncThrowingStream<Int, any Error> { $0.finish() }

        // Debounce.
        let debounced: AsyncDebounceSequence<AsyncStream<Int>, ContinuousClock> = base.debounce(for: .seconds(1), tolerance: nil, clock: .continuous)
        let debouncedDefault: AsyncDebounceSequence<AsyncStream<Int>, ContinuousClock> = base.debounce(for: .seconds(1))
        requireSendable(debounced)
        for await _ in debouncedDefault {}  // no `try`: the base cannot fail
        for try await _ in throwingBase.debounce(for: .seconds(1), clock: SuspendingClock()) {}

        // Throttle, underscored as 1.x ships it, and the guide's names.
        let latest: _AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, Int> = base._throttle(for: .seconds(1), clock: .continuous, latest: true)
        let reduced: _AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, [Int]> = base._throttle(for: .seconds(1), clock: .continuous) {
            ($0 ?? []) + [$1]
        }
        let defaultClock: _AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, Int> = base._throttle(for: .seconds(1))
        let defaultReduced: _AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, Int> = base._throttle(for: .seconds(1)) { ($0 ?? 0) + $1 }
        let guideName: AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, Int> = base.throttle(for: .seconds(1), clock: .continuous, latest: false)
        _ = base.throttle(for: .seconds(1))
        _ = base.throttle(for: .seconds(1)) { ($0 ?? 0) + $1 }
        _ = base.throttle(for: .seconds(1), clock: SuspendingClock()) { (sum: Int?, element: Int) in (sum ?? 0) + element }
        requireSendable(latest)
        requireSendable(reduced)
        for await _ in defaultClock {}
        _ = (defaultReduced, guideName)

        // Timer.
        let timer: AsyncTimerSequence<ContinuousClock> = .repeating(every: .seconds(1), tolerance: nil, clock: .continuous)
        let suspending: AsyncTimerSequence<SuspendingClock> = .repeating(every: .seconds(1))
        let initialised = AsyncTimerSequence(interval: .seconds(1), clock: ContinuousClock())
        requireSendable(timer)
        _ = (suspending, initialised)

        // Chunks with a signal or a timer.
        let bySignal: AsyncChunksOfCountOrSignalSequence<AsyncStream<Int>, [Int], AsyncStream<Int>> = base.chunked(by: base)
        let bySignalInto: AsyncChunksOfCountOrSignalSequence<AsyncStream<Int>, ContiguousArray<Int>, AsyncStream<Int>> = base.chunked(
            by: base, into: ContiguousArray<Int>.self)
        let countOrSignal: AsyncChunksOfCountOrSignalSequence<AsyncStream<Int>, [Int], AsyncStream<Int>> = base.chunks(ofCount: 2, or: base)
        let countOrSignalInto = base.chunks(ofCount: 2, or: base, into: ContiguousArray<Int>.self)
        let byTimer: AsyncChunksOfCountOrSignalSequence<AsyncStream<Int>, [Int], AsyncTimerSequence<SuspendingClock>> = base.chunked(
            by: .repeating(every: .seconds(1)))
        let byTimerInto = base.chunked(by: .repeating(every: .seconds(1), clock: ContinuousClock()), into: ContiguousArray<Int>.self)
        let countOrTimer = base.chunks(ofCount: 3, or: .repeating(every: .seconds(1)))
        let countOrTimerInto = base.chunks(ofCount: 3, or: .repeating(every: .seconds(1), clock: ContinuousClock()), into: ContiguousArray<Int>.self)
        requireSendable(bySignal)
        for await _ in byTimer {}  // no `try`: neither the base nor the timer can fail
        _ = (bySignalInto, countOrSignal, countOrSignalInto, byTimerInto, countOrTimer, countOrTimerInto)
    }
}
