/// The state `share()`'s sides have in common: a `ShareStateMachine` under a `StateLock`, and the
/// one task that iterates the base (started at the first demand, through `TaskSpawning`).
/// Continuations are resumed only after the lock is released.
final class ShareStorage<Base: AsyncSequence>: Sendable
where Base.Element: Sendable, Base: SendableMetatype, Base.AsyncIterator: SendableMetatype {
    typealias Element = Base.Element
    typealias Consumer = UnsafeContinuation<Result<Element?, Base.Failure>, Never>
    typealias Producer = UnsafeContinuation<Bool, Never>
    typealias Machine = ShareStateMachine<Element, Base.Failure, Consumer, Producer>

    private let machine: StateLock<Machine>
    private let task = StateLock<Task<Void, Never>?>(nil)
    private let makeIterator: @Sendable () -> sending Base.AsyncIterator

    init(policy: Machine.Policy, makeIterator: @escaping @Sendable () -> sending Base.AsyncIterator) {
        self.machine = StateLock(Machine(policy: policy))
        self.makeIterator = makeIterator
    }

    func registerSide() -> Int {
        machine.withLock { $0.registerSide() }
    }

    func unregisterSide(_ id: Int) {
        perform(stop: machine.withLock { $0.unregisterSide(id) })
    }

    func sequenceDropped() {
        perform(stop: machine.withLock { $0.sequenceDropped() })
    }

    func next(side id: Int) async throws(Base.Failure) -> Element? {
        switch machine.withLock({ $0.next(side: id) }) {
        case .element(let element, let producer):
            producer?.resume(returning: true)
            return element
        case .terminal(let result):
            return try result.get()
        case .suspend(let startTask):
            if startTask { self.startTask() }
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (consumer: Consumer) in
                switch machine.withLock({ $0.nextSuspended(side: id, consumer: consumer, isCancelled: Task.isCancelled) }) {
                case .none(let producer):
                    producer?.resume(returning: true)
                case .resumeConsumer(let consumer, let result, let producer):
                    producer?.resume(returning: true)
                    consumer.resume(returning: result)
                }
            }
        } onCancel: {
            let (consumer, producer) = machine.withLock { $0.nextCancelled(side: id) }
            producer?.resume(returning: true)
            consumer?.resume(returning: .success(nil))
        }
        return try result.get()
    }

    private func perform(stop: (producer: Producer?, resumeWith: Bool, cancelTask: Bool)) {
        if stop.cancelTask { task.withLock { $0 }?.cancel() }
        stop.producer?.resume(returning: stop.resumeWith)
    }

    private func startTask() {
        let handle = TaskSpawning.spawnTask { [self] in
            var iterator = self.makeIterator()
            while await self.waitForDemand() {
                do throws(Base.Failure) {
                    guard let element = try await iterator.next(isolation: nil) else {
                        self.baseEnded(failure: nil)
                        return
                    }
                    for consumer in self.machine.withLock({ $0.produced(element) }) {
                        consumer.resume(returning: .success(element))
                    }
                } catch {
                    self.baseEnded(failure: error)
                    return
                }
            }
        }
        task.withLock { $0 = handle }
    }

    private func waitForDemand() async -> Bool {
        switch machine.withLock({ $0.waitForDemand() }) {
        case .proceed: return true
        case .stop: return false
        case .suspend: break
        }
        return await withUnsafeContinuation { (producer: Producer) in
            if let resume = machine.withLock({ $0.waitForDemand(producer: producer) }) {
                producer.resume(returning: resume)
            }
        }
    }

    private func baseEnded(failure: Base.Failure?) {
        for (consumer, result) in machine.withLock({ $0.baseEnded(failure: failure) }) {
            consumer.resume(returning: result)
        }
    }
}
