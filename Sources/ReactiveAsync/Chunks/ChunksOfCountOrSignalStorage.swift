/// The chunking state machine under a lock, its task (pulling the base and the signal), and the
/// continuations it resumes, always after the lock is released.
final class ChunksOfCountOrSignalStorage<Base: AsyncSequence & Sendable, Signal: AsyncSequence & Sendable>: Sendable
where Base.Element: Sendable, Signal.Element: Sendable {
    typealias Chunk = [Base.Element]
    private typealias Machine = ChunksOfCountOrSignalStateMachine<
        Base.Element, UnsafeContinuation<Chunk?, any Error>, PullGate, Task<Void, Never>
    >

    private let machine: StateLock<Machine>
    private let base: Base
    private let signal: Signal

    init(base: Base, count: Int?, signal: Signal) {
        self.base = base
        self.signal = signal
        machine = StateLock(Machine(count: count))
    }

    func next() async throws -> Chunk? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (downstream: UnsafeContinuation<Chunk?, any Error>) in
                machine.withLock { $0.next(downstream) }.perform(downstream, startTask: startTask)
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
        let task = spawnLoops({ [self] in await pullBase() }, { [self] in await pullSignal() })
        machine.withLock { $0.taskStarted(task) }?.cancel()
    }

    private func pullBase() async {
        var iterator = base.makeAsyncIterator()
        while true {
            guard await passGate({ gate in machine.withLock { $0.baseWantsDemand(gate) } }) else { return }
            do {
                guard let element = try await iterator.next() else {
                    end(machine.withLock { $0.baseFinished() })
                    return
                }
                if let (downstream, chunk) = machine.withLock({ $0.elementProduced(element) }) {
                    downstream.resume(returning: chunk)
                }
            } catch {
                end(machine.withLock { $0.failed(error) })
                return
            }
        }
    }

    private func pullSignal() async {
        do {
            for try await _ in signal {
                if let (downstream, chunk) = machine.withLock({ $0.signalled() }) {
                    downstream.resume(returning: chunk)
                }
            }
        } catch {
            end(machine.withLock { $0.failed(error) })
        }
    }

    private func end(_ ending: Machine.Ending) {
        ending.task?.cancel()
        ending.gate?.resume(returning: false)
        ending.downstream?.resume(with: ending.result)
    }
}
