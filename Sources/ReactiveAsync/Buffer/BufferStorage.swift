/// One iteration of an `AsyncBufferSequence`: the base's task (started at the first `next()`,
/// through `TaskSpawning`) and a `BufferCore` it hands the elements to.
///
/// Only the loop over the base and the casts back to `Element` and `Failure` are generic: the
/// elements pass through the core type-erased, so its state machine, its lock and its
/// continuations do not depend on the base and run specialised. Generic over the base, they ran
/// unspecialised from another module and asked the runtime for generic metadata on every element
/// (callgrind: about half of `async-buffer-unbounded`'s instructions).
final class BufferStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private let base: Base
    let core: BufferCore

    init(base: Base, policy: BufferCore.Machine.Policy) {
        self.base = base
        self.core = BufferCore(policy: policy)
    }

    /// The next element and `rest`: what an `.unbounded` buffer handed over with it, which the
    /// iterator returns before it asks again.
    func next() async throws(Base.Failure) -> (Element?, rest: FIFOQueue<any Sendable>) {
        var rest = FIFOQueue<any Sendable>()
        switch await core.next(stash: &rest, startTask: startTask) {
        case .success(let element?):
            return (unerased(element, as: Element.self), rest)
        case .success(nil):
            return (nil, rest)
        case .failure(let error):
            guard let failure = error as? Base.Failure else { preconditionFailure("the base threw a \(type(of: error)), not a \(Base.Failure.self)") }
            throw failure
        }
    }

    /// The iterator is gone: the base's task is cancelled and its iterator released (the
    /// package's `.unbounded` buffer, as reported in issue 42, keeps iterating instead).
    func iteratorDropped() {
        core.iteratorDropped()
    }

    private func startTask() {
        let handle = TaskSpawning.spawnTask { [base, core] in
            var iterator = base.makeAsyncIterator()
            // The core is asked for room before the first pull, and again only when an element
            // filled a `.bounded` buffer (`produced` says so in the same lock hold).
            var mayPull = await core.waitForRoom()
            while mayPull {
                do throws(Base.Failure) {
                    guard let element = try await iterator.next(isolation: nil) else {
                        core.baseEnded(failure: nil)
                        return
                    }
                    switch core.produced(element) {
                    case .pull: break
                    case .waitForRoom: mayPull = await core.waitForRoom()
                    case .stop: return
                    }
                } catch {
                    core.baseEnded(failure: error)
                    return
                }
            }
        }
        core.started(handle)
    }
}

/// The part of a buffer that does not depend on the base: its `BufferStateMachine` over
/// type-erased elements under a `StateLock`, and the handle of the base's task. Continuations
/// are resumed only after the lock is released.
final class BufferCore: Sendable {
    typealias Consumer = UnsafeContinuation<Result<(any Sendable)?, any Error>, Never>
    typealias Producer = UnsafeContinuation<Bool, Never>
    typealias Machine = BufferStateMachine<any Sendable, any Error, Consumer, Producer>

    /// What the base's task does after handing over an element.
    enum AfterProduced { case pull, waitForRoom, stop }

    private let machine: StateLock<Machine>
    private let task = StateLock<Task<Void, Never>?>(nil)

    init(policy: Machine.Policy) {
        self.machine = StateLock(Machine(policy: policy))
    }

    /// The next element, the base's end (`nil`) or its failure; calls `startTask` at the first.
    func next(stash: inout FIFOQueue<any Sendable>, startTask: () -> Void) async -> Result<(any Sendable)?, any Error> {
        switch machine.withLock({ $0.next(batching: true) }) {
        case .element(let element, let producer):
            producer?.resume(returning: true)
            return .success(element)
        case .elements(let first, let rest):
            stash = rest
            return .success(first)
        case .terminal(let result):
            return result
        case .startTaskAndSuspend:
            startTask()
        case .suspend:
            break
        }
        return await withTaskCancellationHandler {
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
    }

    /// The iterator is gone: ends the buffer and cancels the base's task.
    func iteratorDropped() {
        let (producer, cancel) = machine.withLock { $0.iteratorDropped() }
        if cancel { cancelTask() }
        producer?.resume(returning: false)
    }

    /// The base's task started.
    func started(_ handle: Task<Void, Never>) {
        task.withLock { $0 = handle }
    }

    private func cancelTask() {
        task.withLock { $0 }?.cancel()
    }

    /// Before the task pulls: `true` to pull, `false` to stop; suspends while a `.bounded`
    /// buffer is full.
    func waitForRoom() async -> Bool {
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

    /// The base produced `element`.
    func produced(_ element: any Sendable) -> AfterProduced {
        switch machine.withLock({ $0.produced(element) }) {
        case .none: return .pull
        case .full: return .waitForRoom
        case .resumeConsumer(let consumer):
            consumer.resume(returning: .success(element))
            return .pull
        case .stop: return .stop
        }
    }

    /// The base ended: finished (`failure` nil) or threw.
    func baseEnded(failure: (any Error)?) {
        if let (consumer, result) = machine.withLock({ $0.baseEnded(failure: failure) }) {
            consumer.resume(returning: result)
        }
    }
}
