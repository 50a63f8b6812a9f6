/// One iteration of an `AsyncDebounceSequence`: its task (started at the first `next()`, through
/// `TaskSpawning`) runs two loops, one pulling the base and one sleeping on the clock, and both
/// hand what they see to a `DebounceCore`.
///
/// Only the loops over the base and the clock and the casts back to `Element`, `Failure` and
/// `C.Instant` are generic: elements and deadlines pass through the core type-erased, so its state
/// machine, its lock and its continuations do not depend on the base or the clock and run
/// specialised. Generic over them, they ran unspecialised from another module and asked the
/// runtime for generic metadata on every element (callgrind: a third of `async-debounce`).
final class DebounceStorage<Base: AsyncSequence & Sendable, C: Clock>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private let core = DebounceCore()
    private let base: Base
    private let interval: C.Instant.Duration
    private let tolerance: C.Instant.Duration?
    private let clock: C

    init(base: Base, interval: C.Instant.Duration, tolerance: C.Instant.Duration?, clock: C) {
        self.base = base
        self.interval = interval
        self.tolerance = tolerance
        self.clock = clock
    }

    func next() async throws -> Element? {
        let now = clock.now
        let element = try await core.next(isDue: { unerased($0, as: C.Instant.self) <= now }, startTask: startTask)
        return element.map { unerased($0, as: Element.self) }
    }

    /// The consumer dropped its iterator.
    func iteratorDeinitialized() {
        core.cancel()
    }

    private func startTask() {
        let task = spawnLoops({ [self] in await pullBase() }, { [self] in await runClock() })
        core.started(task)
    }

    private func pullBase() async {
        var iterator = base.makeAsyncIterator()
        while await core.mayPull() {
            do {
                guard let element = try await iterator.next() else {
                    core.baseEnded(failure: nil)
                    return
                }
                core.produced(element, deadline: clock.now.advanced(by: interval))
            } catch {
                core.baseEnded(failure: error)
                return
            }
        }
    }

    private func runClock() async {
        while let (deadline, generation) = await core.nextDeadline() {
            do {
                try await clock.sleep(until: unerased(deadline, as: C.Instant.self), tolerance: tolerance)
            } catch {
                return
            }
            core.clockFired(generation: generation)
        }
    }
}

/// The part of a debounce that does not depend on the base or the clock: its
/// `DebounceStateMachine` over type-erased elements and deadlines under a `StateLock`, and the
/// continuations it resumes (always after the lock is released).
final class DebounceCore: Sendable {
    typealias Downstream = UnsafeContinuation<(any Sendable)?, any Error>
    typealias Alarm = UnsafeContinuation<(deadline: any Sendable, generation: UInt64)?, Never>
    typealias Machine = DebounceStateMachine<any Sendable, any Sendable, Downstream, PullGate, Alarm, Task<Void, Never>>

    private let machine = StateLock(Machine())

    /// The next element, nil at the end or after cancellation; calls `startTask` at the first.
    ///
    /// - Parameters:
    ///   - isDue: Whether a pending element's deadline has passed (called under the lock).
    ///   - startTask: Starts the operator's task (called outside the lock).
    /// - Throws: The base's failure.
    func next(isDue: (any Sendable) -> Bool, startTask: () -> Void) async throws -> (any Sendable)? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (downstream: Downstream) in
                machine.withLock { $0.next(downstream, isDue: isDue) }.perform(downstream, startTask: startTask)
            }
        } onCancel: {
            cancel()
        }
    }

    /// The consumer was cancelled or dropped its iterator: everything ends.
    func cancel() {
        end(machine.withLock { $0.cancelled() })
    }

    /// The operator's task started.
    func started(_ task: Task<Void, Never>) {
        machine.withLock { $0.taskStarted(task) }?.cancel()
    }

    /// Before the upstream loop pulls: true to pull, false to stop; waits while nobody asks.
    func mayPull() async -> Bool {
        await passGate { gate in machine.withLock { $0.upstreamWantsDemand(gate) } }
    }

    /// The base produced `element`, due at `deadline`.
    func produced(_ element: any Sendable, deadline: any Sendable) {
        if let (alarm, generation) = machine.withLock({ $0.elementProduced(element, deadline: deadline) }) {
            alarm.resume(returning: (deadline, generation))
        }
    }

    /// The base ended: finished (`failure` nil) or threw.
    func baseEnded(failure: (any Error)?) {
        if let failure {
            end(machine.withLock { $0.upstreamThrew(failure) })
        } else {
            end(machine.withLock { $0.upstreamFinished() })
        }
    }

    /// The deadline the clock loop sleeps to and its element's generation; waits while nothing is
    /// pending; nil: stop.
    func nextDeadline() async -> (deadline: any Sendable, generation: UInt64)? {
        await withUnsafeContinuation { (alarm: Alarm) in
            switch machine.withLock({ $0.clockWantsDeadline(alarm) }) {
            case .sleep(let deadline, let generation): alarm.resume(returning: (deadline, generation))
            case .suspend: break
            case .stop: alarm.resume(returning: nil)
            }
        }
    }

    /// The clock reached the deadline of the element of `generation`.
    func clockFired(generation: UInt64) {
        if let (downstream, element) = machine.withLock({ $0.clockFired(generation: generation) }) {
            downstream.resume(returning: element)
        }
    }

    private func end(_ ending: Machine.Ending) {
        ending.task?.cancel()
        ending.gate?.resume(returning: false)
        ending.alarm?.resume(returning: nil)
        ending.downstream?.resume(with: ending.result)
    }
}
