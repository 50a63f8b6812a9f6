/// The storage of `merge`, `zip` and `combineLatest`: a state machine under a lock, the task that
/// iterates the bases (one child task per base), and the continuations it hands out.
///
/// Continuations are resumed and tasks started or cancelled only after the lock is released. They
/// are unsafe continuations (no checking object allocated per suspension): the state machine
/// hands each one out exactly once, which its unit tests check.
final class UpstreamStorage<Machine: UpstreamStateMachine>: Sendable
where
    Machine.Downstream == UnsafeContinuation<Machine.Output?, any Error>,
    Machine.Upstream == UnsafeContinuation<Bool, Never>,
    Machine.Input: Sendable, Machine.Output: Sendable
{
    /// One base's loop, given the port it reports through.
    typealias Producer = UpstreamProducer<Machine.Input>

    private struct Locked {
        var machine: Machine
        var task: Task<Void, Never>?
        var taskCancelled = false
    }

    private let locked: StateLock<Locked>
    private let producers: [Producer]

    init(_ machine: sending Machine, producers: [Producer]) {
        locked = StateLock(Locked(machine: machine))
        self.producers = producers
    }

    /// The consumer's `next()`; the caller installs the cancellation handler that calls `cancel()`.
    func next() async throws -> Machine.Output? {
        try await withUnsafeThrowingContinuation { (downstream: Machine.Downstream) in
            handle { $0.next(downstream) }
        }
    }

    /// The consumer's task was cancelled or its iterator dropped: stop everything.
    func cancel() {
        handle { $0.cancelled() }
    }

    /// Base `index`'s way in. Its closures are made here, where `Machine` is the one concrete type
    /// the operator uses (for `zip` and `combineLatest` it does not depend on the bases), so the
    /// per-element path runs specialized; the base's loop, generic over the base, only calls them.
    private func port(_ index: Int) -> UpstreamPort<Machine.Input> {
        UpstreamPort(
            demand: { [self] in await demand(index) },
            produced: { [self] value in handle { $0.produced(index, value) } },
            finished: { [self] in handle { $0.upstreamFinished(index) } },
            threw: { [self] error in handle { $0.upstreamThrew(index, error) } })
    }

    private func demand(_ index: Int) async -> Bool {
        await withUnsafeContinuation { (upstream: Machine.Upstream) in
            handle { $0.upstreamWaiting(index, upstream) }
        }
    }

    private func handle(_ event: (inout Machine) -> UpstreamEffects<Machine.Downstream, Machine.Upstream, Machine.Output>) {
        let (effects, task) = locked.withLock { locked in
            let effects = event(&locked.machine)
            guard effects.cancelTask else { return (effects, nil as Task<Void, Never>?) }
            locked.taskCancelled = true
            let task = locked.task
            locked.task = nil
            return (effects, task)
        }
        task?.cancel()
        for upstream in effects.stopUpstreams { upstream.resume(returning: false) }
        for upstream in effects.resumeUpstreams { upstream.resume(returning: true) }
        if effects.startTask { startTask() }
        if let (downstream, result) = effects.downstream { downstream.resume(with: result) }
    }

    private func startTask() {
        let producers = producers
        let task = TaskSpawning.spawnTask { [self] in
            await withTaskGroup(of: Void.self) { group in
                for (index, producer) in producers.enumerated() {
                    let port = self.port(index)
                    group.addTask { await producer(port) }
                }
            }
        }
        let cancelNow = locked.withLock { locked in
            if locked.taskCancelled { return true }
            locked.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }
}

/// Cancels the storage when the consumer drops its iterator.
final class UpstreamIteratorHandle<Machine: UpstreamStateMachine>: Sendable
where
    Machine.Downstream == UnsafeContinuation<Machine.Output?, any Error>,
    Machine.Upstream == UnsafeContinuation<Bool, Never>,
    Machine.Input: Sendable, Machine.Output: Sendable
{
    let storage: UpstreamStorage<Machine>

    init(_ storage: UpstreamStorage<Machine>) {
        self.storage = storage
    }

    /// An iteration of one producer per base under `machine`; nothing runs before the first `next()`.
    convenience init(_ machine: sending Machine, producers: [UpstreamStorage<Machine>.Producer]) {
        self.init(UpstreamStorage(machine, producers: producers))
    }

    deinit {
        storage.cancel()
    }

    /// The consumer's `next()`, with the cancellation handler that stops everything.
    func next() async throws -> Machine.Output? {
        let storage = storage
        return try await withTaskCancellationHandler {
            try await storage.next()
        } onCancel: {
            storage.cancel()
        }
    }
}

/// What one base's loop reports to an `UpstreamStorage`, and how it asks for demand.
struct UpstreamPort<Input>: Sendable {
    /// Waits until the state machine lets the base call `next()`; false: stop.
    let demand: @Sendable () async -> Bool
    /// The base produced an element.
    let produced: @Sendable (Input) -> Void
    /// The base returned nil.
    let finished: @Sendable () -> Void
    /// The base threw.
    let threw: @Sendable (any Error) -> Void
}

/// One base's loop, started by `UpstreamStorage` with the port of its base.
typealias UpstreamProducer<Input> = @Sendable (UpstreamPort<Input>) async -> Void

/// The loop that iterates `base` and reports through the port, its elements type-erased, so the
/// state machine's type does not depend on the bases (and `zip`'s and `combineLatest`'s can take
/// bases of different element types).
func erasingProducer<Base: AsyncSequence & Sendable>(_ base: Base) -> UpstreamProducer<any Sendable> where Base.Element: Sendable {
    { port in await pump(base, into: port) { $0 } }
}

/// Iterates `base`, one `next()` per demand the port grants.
private func pump<Base: AsyncSequence, Input>(_ base: Base, into port: UpstreamPort<Input>, _ transform: (Base.Element) -> Input) async {
    var iterator = base.makeAsyncIterator()
    do {
        while await port.demand() {
            guard let element = try await iterator.next() else {
                port.finished()
                return
            }
            port.produced(transform(element))
        }
    } catch {
        port.threw(error)
    }
}

/// An element that went through a state machine type-erased, as its type again.
///
/// The producer put an `Element` there, so the cast cannot fail.
///
/// - Parameters:
///   - value: The erased element.
///   - type: Its type.
/// - Returns: The element, as its type.
func unerased<Element>(_ value: any Sendable, as type: Element.Type = Element.self) -> Element {
    guard let element = value as? Element else {
        preconditionFailure("an erased \(Swift.type(of: value)) is not a \(Element.self)")
    }
    return element
}

/// Base `index`'s element in a tuple that `zip` or `combineLatest` assembled type-erased.
///
/// The producer of base `index` put a `Element` there, so the cast cannot fail.
///
/// - Parameters:
///   - values: The erased tuple, one element per base.
///   - index: The base.
/// - Returns: The element, as its type.
func element<Element>(_ values: [any Sendable], _ index: Int, as type: Element.Type = Element.self) -> Element {
    guard let element = values[index] as? Element else {
        preconditionFailure("slot \(index) holds a \(Swift.type(of: values[index])), not a \(Element.self)")
    }
    return element
}
