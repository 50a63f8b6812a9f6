/// `debounce`'s state machine under a lock, its task, and the continuations it resumes (always
/// after the lock is released).
final class DebounceStorage<Base: AsyncSequence & Sendable, C: Clock>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    private typealias Machine = DebounceStateMachine<
        Element, C.Instant, UnsafeContinuation<Element?, any Error>, PullGate,
        UnsafeContinuation<C.Instant?, Never>, Task<Void, Never>
    >

    private let machine = StateLock(Machine())
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
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (downstream: UnsafeContinuation<Element?, any Error>) in
                let now = clock.now
                machine.withLock { $0.next(downstream, now: now) }.perform(downstream, startTask: startTask)
            }
        } onCancel: {
            end(machine.withLock { $0.cancelled() })
        }
    }

    /// The consumer dropped its iterator.
    func iteratorDeinitialized() {
        end(machine.withLock { $0.cancelled() })
    }

    private func startTask() {
        let task = spawnLoops({ [self] in await pullBase() }, { [self] in await runClock() })
        machine.withLock { $0.taskStarted(task) }?.cancel()
    }

    private func pullBase() async {
        var iterator = base.makeAsyncIterator()
        while true {
            guard await passGate({ gate in machine.withLock { $0.upstreamWantsDemand(gate) } }) else { return }
            do {
                guard let element = try await iterator.next() else {
                    end(machine.withLock { $0.upstreamFinished() })
                    return
                }
                let deadline = clock.now.advanced(by: interval)
                machine.withLock { $0.elementProduced(element, deadline: deadline) }?.resume(returning: deadline)
            } catch {
                end(machine.withLock { $0.upstreamThrew(error) })
                return
            }
        }
    }

    private func runClock() async {
        while true {
            let deadline = await withUnsafeContinuation { (alarm: UnsafeContinuation<C.Instant?, Never>) in
                switch machine.withLock({ $0.clockWantsDeadline(alarm) }) {
                case .sleep(let deadline): alarm.resume(returning: deadline)
                case .suspend: break
                case .stop: alarm.resume(returning: nil)
                }
            }
            guard let deadline else { return }
            do {
                try await clock.sleep(until: deadline, tolerance: tolerance)
            } catch {
                return
            }
            if let (downstream, element) = machine.withLock({ $0.clockFired(at: deadline) }) {
                downstream.resume(returning: element)
            }
        }
    }

    private func end(_ ending: Machine.Ending) {
        ending.task?.cancel()
        ending.gate?.resume(returning: false)
        ending.alarm?.resume(returning: nil)
        ending.downstream?.resume(with: ending.result)
    }
}
