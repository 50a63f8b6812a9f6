/// One iteration of an `AsyncBufferSequence`: its `BufferStateMachine` under a `StateLock`, and the
/// task that iterates the base (started at the first `next()`, through `TaskSpawning`).
/// Continuations are resumed only after the lock is released.
final class BufferStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    typealias Consumer = UnsafeContinuation<Result<Element?, Base.Failure>, Never>
    typealias Producer = UnsafeContinuation<Bool, Never>
    typealias Machine = BufferStateMachine<Element, Base.Failure, Consumer, Producer>

    private let base: Base
    private let machine: StateLock<Machine>
    private let task = StateLock<Task<Void, Never>?>(nil)

    init(base: Base, policy: Machine.Policy) {
        self.base = base
        self.machine = StateLock(Machine(policy: policy))
    }

    func next() async throws(Base.Failure) -> Element? {
        switch machine.withLock({ $0.next() }) {
        case .element(let element, let producer):
            producer?.resume(returning: true)
            return element
        case .terminal(let result):
            return try result.get()
        case .startTaskAndSuspend:
            startTask()
        case .suspend:
            break
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (consumer: Consumer) in
                switch machine.withLock({ $0.nextSuspended(consumer: consumer, isCancelled: Task.isCancelled) }) {
                case .none:
                    break
                case .resumeConsumer(let consumer, let result, let producer):
                    producer?.resume(returning: true)
                    consumer.resume(returning: result)
                case .cancel(let consumer, let producer):
                    cancelTask()
                    producer?.resume(returning: false)
                    consumer.resume(returning: .success(nil))
                }
            }
        } onCancel: {
            guard let (consumer, producer) = machine.withLock({ $0.consumerCancelled() }) else { return }
            cancelTask()
            producer?.resume(returning: false)
            consumer.resume(returning: .success(nil))
        }
        return try result.get()
    }

    /// The iterator is gone: the base's task is cancelled and its iterator released (the
    /// package's `.unbounded` buffer, as reported in issue 42, keeps iterating instead).
    func iteratorDropped() {
        let (producer, cancel) = machine.withLock { $0.iteratorDropped() }
        if cancel { cancelTask() }
        producer?.resume(returning: false)
    }

    private func cancelTask() {
        task.withLock { $0 }?.cancel()
    }

    private func startTask() {
        let handle = TaskSpawning.spawnTask { [base, self] in
            var iterator = base.makeAsyncIterator()
            while await self.waitForRoom() {
                do throws(Base.Failure) {
                    guard let element = try await iterator.next(isolation: nil) else {
                        self.baseEnded(failure: nil)
                        return
                    }
                    guard self.produced(element) else { return }
                } catch {
                    self.baseEnded(failure: error)
                    return
                }
            }
        }
        task.withLock { $0 = handle }
    }

    private func waitForRoom() async -> Bool {
        switch machine.withLock({ $0.waitForRoom() }) {
        case .proceed: return true
        case .stop: return false
        case .suspend: break
        }
        return await withUnsafeContinuation { (producer: Producer) in
            if let resume = machine.withLock({ $0.waitForRoom(producer: producer) }) {
                producer.resume(returning: resume)
            }
        }
    }

    private func produced(_ element: Element) -> Bool {
        switch machine.withLock({ $0.produced(element) }) {
        case .none: return true
        case .resumeConsumer(let consumer):
            consumer.resume(returning: .success(element))
            return true
        case .stop: return false
        }
    }

    private func baseEnded(failure: Base.Failure?) {
        if let (consumer, result) = machine.withLock({ $0.baseEnded(failure: failure) }) {
            consumer.resume(returning: result)
        }
    }
}
