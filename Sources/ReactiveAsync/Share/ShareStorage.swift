/// The state `share()`'s sides have in common: the one task that iterates the base (started at the
/// first demand, through `TaskSpawning`) and a `ShareCore` it hands the elements to.
///
/// Only the loop over the base and the casts back to `Element` and `Failure` are generic: the
/// elements pass through the core type-erased, so its state machine, its lock and its
/// continuations do not depend on the base and run specialised (as `BufferStorage`'s do).
final class ShareStorage<Base: AsyncSequence>: Sendable
where Base.Element: Sendable, Base: SendableMetatype, Base.AsyncIterator: SendableMetatype {
    typealias Element = Base.Element

    let core: ShareCore
    private let makeIterator: @Sendable () -> sending Base.AsyncIterator

    init(policy: ShareCore.Machine.Policy, makeIterator: @escaping @Sendable () -> sending Base.AsyncIterator) {
        self.core = ShareCore(policy: policy)
        self.makeIterator = makeIterator
    }

    func registerSide() -> Int { core.registerSide() }

    func unregisterSide(_ id: Int) { core.unregisterSide(id) }

    func sequenceDropped() { core.sequenceDropped() }

    func next(side id: Int) async throws(Base.Failure) -> Element? {
        switch await core.next(side: id, startTask: startTask) {
        case .success(let element?):
            return unerased(element, as: Element.self)
        case .success(nil):
            return nil
        case .failure(let error):
            guard let failure = error as? Base.Failure else { preconditionFailure("the base threw a \(type(of: error)), not a \(Base.Failure.self)") }
            throw failure
        }
    }

    private func startTask() {
        let handle = TaskSpawning.spawnTask { [self, core] in
            var iterator = self.makeIterator()
            while await core.waitForDemand() {
                do throws(Base.Failure) {
                    guard let element = try await iterator.next(isolation: nil) else {
                        core.baseEnded(failure: nil)
                        return
                    }
                    core.produced(element)
                } catch {
                    core.baseEnded(failure: error)
                    return
                }
            }
        }
        core.started(handle)
    }
}

/// The part of `share()` that does not depend on the base: a `ShareStateMachine` over type-erased
/// elements under a `StateLock`, and the handle of the base's task. Continuations are resumed only
/// after the lock is released.
final class ShareCore: Sendable {
    typealias Element = any Sendable
    typealias Consumer = UnsafeContinuation<Result<Element?, any Error>, Never>
    typealias Producer = UnsafeContinuation<Bool, Never>
    typealias Machine = ShareStateMachine<Element, any Error, Consumer, Producer>

    private let machine: StateLock<Machine>
    private let task = StateLock<Task<Void, Never>?>(nil)

    init(policy: Machine.Policy) {
        self.machine = StateLock(Machine(policy: policy))
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

    /// The next element of side `id`, `nil` at the end, or the base's failure; calls `startTask`
    /// when the first demand starts the base's task.
    func next(side id: Int, startTask: () -> Void) async -> Result<Element?, any Error> {
        switch machine.withLock({ $0.next(side: id) }) {
        case .element(let element, let producer):
            producer?.resume(returning: true)
            return .success(element)
        case .terminal(let result):
            return result
        case .suspend(let start):
            if start { startTask() }
        }
        return await withTaskCancellationHandler {
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
    }

    /// The base's task started.
    func started(_ handle: Task<Void, Never>) {
        task.withLock { $0 = handle }
    }

    private func perform(stop: (producer: Producer?, resumeWith: Bool, cancelTask: Bool)) {
        if stop.cancelTask { task.withLock { $0 }?.cancel() }
        stop.producer?.resume(returning: stop.resumeWith)
    }

    /// The base produced `element`: every side waiting for it gets it.
    func produced(_ element: Element) {
        for consumer in machine.withLock({ $0.produced(element) }) {
            consumer.resume(returning: .success(element))
        }
    }

    /// Before the task pulls: `true` to pull, `false` to stop; suspends until a side asks.
    func waitForDemand() async -> Bool {
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

    /// The base ended: finished (`failure` nil) or threw.
    func baseEnded(failure: (any Error)?) {
        for (consumer, result) in machine.withLock({ $0.baseEnded(failure: failure) }) {
            consumer.resume(returning: result)
        }
    }
}
