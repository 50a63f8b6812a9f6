/// One iteration of `flatMapLatest`: the state machine under a `StateLock`, the outer task that
/// iterates the base and the inner task of the latest element (both through `TaskSpawning`).
/// Continuations are resumed only after the lock is released.
final class FlatMapLatestStorage<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
    typealias Element = Inner.Element
    typealias Consumer = UnsafeContinuation<Result<Element?, any Error>, Never>
    typealias Producer = UnsafeContinuation<Bool, Never>

    private struct Tasks {
        var outer: Task<Void, Never>?
        var inner: Task<Void, Never>?
        var cancelled = false
    }

    private let base: Base
    private let transform: @Sendable (Base.Element) -> Inner
    private let machine = StateLock(FlatMapLatestStateMachine<Element, Consumer, Producer>())
    private let tasks = StateLock(Tasks())

    init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
        self.base = base
        self.transform = transform
    }

    func next() async throws -> Element? {
        switch machine.withLock({ $0.next() }) {
        case .element(let element, let producer):
            producer.resume(returning: true)
            return element
        case .terminal(let result):
            return try result.get()
        case .startTasks:
            startOuter()
        case .suspend:
            break
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (consumer: Consumer) in
                if let (result, producer) = machine.withLock({ $0.nextSuspended(consumer: consumer, isCancelled: Task.isCancelled) }) {
                    producer?.resume(returning: true)
                    consumer.resume(returning: result)
                }
            }
        } onCancel: {
            cancel()
        }
        // The end, a cancellation or a failure: nothing more runs for this iterator.
        if case .success(nil) = result { cancel() }
        return try result.get()
    }

    /// Ends everything: the consumer (nil), an inner offer (refused), the outer and inner tasks.
    func cancel() {
        let (consumer, producer) = machine.withLock { $0.cancel() }
        let running = tasks.withLock { tasks in
            tasks.cancelled = true
            return (tasks.outer, tasks.inner)
        }
        running.0?.cancel()
        running.1?.cancel()
        producer?.resume(returning: false)
        consumer?.resume(returning: .success(nil))
    }

    private func startOuter() {
        let outer = TaskSpawning.spawnTask { [self] in
            do {
                for try await element in base {
                    guard let (generation, stale) = machine.withLock({ $0.newInner() }) else { return }
                    stale?.resume(returning: false)
                    startInner(transform(element), generation: generation)
                }
                resume(machine.withLock { $0.outerEnded(failure: nil) })
            } catch {
                resume(machine.withLock { $0.outerEnded(failure: error) })
            }
        }
        store { $0.outer = outer }
    }

    private func startInner(_ inner: Inner, generation: Int) {
        let task = TaskSpawning.spawnTask { [self] in
            do {
                for try await element in inner {
                    guard await offer(element, generation: generation) else { return }
                }
                resume(machine.withLock { $0.innerEnded(generation: generation, failure: nil) })
            } catch {
                resume(machine.withLock { $0.innerEnded(generation: generation, failure: error) })
            }
        }
        let previous = store { tasks in
            defer { tasks.inner = task }
            return tasks.inner
        }
        previous?.cancel()
    }

    /// Stores a task handle; if everything was cancelled meanwhile, cancels the new handles.
    private func store<R>(_ update: (inout Tasks) -> R) -> R {
        let (result, cancelled, outer, inner) = tasks.withLock { tasks in
            let result = update(&tasks)
            return (result, tasks.cancelled, tasks.outer, tasks.inner)
        }
        if cancelled {
            outer?.cancel()
            inner?.cancel()
        }
        return result
    }

    private func offer(_ element: Element, generation: Int) async -> Bool {
        await withUnsafeContinuation { (producer: Producer) in
            switch machine.withLock({ $0.offer(element, generation: generation, producer: producer) }) {
            case .none:
                break
            case .refuse(let producer):
                producer.resume(returning: false)
            case .deliver(let consumer, let producer):
                consumer.resume(returning: .success(element))
                producer.resume(returning: true)
            }
        }
    }

    private func resume(_ action: (Consumer, Result<Element?, any Error>)?) {
        guard let (consumer, result) = action else { return }
        if case .failure = result { cancel() }
        consumer.resume(returning: result)
    }
}
