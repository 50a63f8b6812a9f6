/// One `asyncMap` subscription: the subscriber to upstream, the subscription handed downstream,
/// and the owner of the long-lived worker task.
///
/// The state lives in `machine` under `lock`; everything the machine asks for (requesting
/// upstream, waking workers, delivering downstream, cancelling) happens after the lock is
/// released (C23). Transforms run in one task started on the first demand (or a discarding task
/// group of `maxConcurrent` long-lived workers), never a task per element.
@usableFromInline
final class AsyncMapStorage<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
{
    // @unchecked: stored vars are only touched under `lock`; values move between the upstream's
    // thread and the worker task one at a time, as the reactive-streams rules serialise them.
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias Machine = AsyncMapStateMachine<Upstream.Output, Downstream.Input, Downstream.Failure>

    @usableFromInline let lock = Lock<Void>()
    @usableFromInline @exclusivity(unchecked) var machine: Machine
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var receivedSubscription = false
    @usableFromInline @exclusivity(unchecked) var task: Task<Void, Never>?
    /// The worker task's body, made in `init`: `init` runs in the subscriber's specialised
    /// context (`receive(subscriber:)`), so the loop is specialised too, whereas `request` arrives
    /// through `any Subscription` and runs generic code. Taken when the task starts; dropped at
    /// the end, which breaks the cycle through `self`.
    @usableFromInline @exclusivity(unchecked) var workerBody: (() async -> Void)?
    @usableFromInline let transform: @Sendable (Upstream.Output) async -> Result<Downstream.Input, Downstream.Failure>
    @usableFromInline let mapFailure: @Sendable (Upstream.Failure) -> Downstream.Failure
    @usableFromInline let executorPreference: (any TaskExecutor)?
    /// A copy of the machine's limit, readable without the lock.
    @usableFromInline let maxConcurrent: Int

    @inlinable
    init(
        downstream: Downstream,
        maxConcurrent: Int,
        executorPreference: (any TaskExecutor)?,
        transform: @escaping @Sendable (Upstream.Output) async -> Result<Downstream.Input, Downstream.Failure>,
        mapFailure: @escaping @Sendable (Upstream.Failure) -> Downstream.Failure
    ) {
        self.downstream = downstream
        self.machine = Machine(maxConcurrent: maxConcurrent)
        self.maxConcurrent = Swift.max(1, maxConcurrent)
        self.executorPreference = executorPreference
        self.transform = transform
        self.mapFailure = mapFailure
        self.workerBody = { await self.runWorkers() }
    }

    @usableFromInline var description: String { "AsyncMap" }

    // MARK: Subscriber (upstream side)

    @inlinable
    func receive(subscription: any Subscription) {
        let target = lock.guarded { () -> Downstream? in
            guard !receivedSubscription, machine.phase != .terminated else { return nil }
            receivedSubscription = true
            upstream = subscription
            return downstream
        }
        guard let target else {
            subscription.cancel()  // C06: keep the first subscription
            return
        }
        target.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        let worker = lock.guarded { machine.upstreamValue(input) }
        worker?.resume()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        let (end, target, task) = lock.guarded { () -> (Machine.Termination, Downstream?, Task<Void, Never>?) in
            let end: Machine.Termination
            switch completion {
            case .finished: end = machine.upstreamFinished()
            case .failure(let error): end = machine.upstreamFailed(mapFailure(error))
            }
            upstream = nil
            guard end.completion != nil else { return (end, nil, end.cancelTask ? self.task : nil) }
            return (end, releaseResources(), takeTask())
        }
        for worker in end.workers { worker.resume() }
        task?.cancel()
        if let completion = end.completion { target?.receive(completion: completion) }
    }

    // MARK: Subscription (downstream side)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (start, count, subscription) = lock.guarded { () -> (Bool, Int, (any Subscription)?) in
            let step = machine.downstreamRequested(demand)
            return (step.startWorkers, step.upstream, upstream)
        }
        if start { startWorkers() }
        if count > 0 { subscription?.request(.max(count)) }
    }

    @inlinable
    func cancel() {
        let taken = lock.guarded { () -> (Machine.Termination, (any Subscription)?, Task<Void, Never>?)? in
            guard machine.phase != .terminated else { return nil }
            let end = machine.cancelled()
            let subscription = upstream
            upstream = nil
            _ = releaseResources()
            return (end, subscription, takeTask())
        }
        guard let (end, subscription, task) = taken else { return }
        for worker in end.workers { worker.resume() }
        task?.cancel()
        subscription?.cancel()
    }

    /// Drops the downstream (C16, C17); returns it so a last completion can still be sent.
    @inlinable
    func releaseResources() -> Downstream? {
        let target = downstream
        downstream = nil
        workerBody = nil
        return target
    }

    @inlinable
    func takeTask() -> Task<Void, Never>? {
        let taken = task
        task = nil
        return taken
    }

    // MARK: Workers

    @inlinable
    func startWorkers() {
        // A plain closure sent to the task: the task's own closure captures no generic metatype.
        guard
            let body = lock.guarded({ () -> (() async -> Void)? in
                let body = workerBody
                workerBody = nil
                return body
            })
        else { return }
        let task = Task(executorPreference: executorPreference) { await body() }
        let cancelNow = lock.guarded { () -> Bool in
            if machine.phase == .terminated { return true }
            self.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    @inlinable
    func runWorkers() async {
        let count = maxConcurrent
        if count == 1 {
            await workerLoop()
        } else {
            // Child tasks inherit the executor preference, so virtual time still drives them.
            await withDiscardingTaskGroup { group in
                for _ in 0..<count {
                    let worker: () async -> Void = { await self.workerLoop() }
                    group.addTask { await worker() }
                }
            }
        }
    }

    @inlinable
    func workerLoop() async {
        while true {
            let step = lock.guarded { machine.nextWork() }
            switch step {
            case .exit:
                return
            case .park:
                await withUnsafeContinuation { (worker: UnsafeContinuation<Void, Never>) in
                    let parked = lock.guarded { machine.park(worker) }
                    if !parked { worker.resume() }
                }
            case .transform(let index, let input):
                let result = await transform(input)
                let emit = lock.guarded { machine.transformed(index: index, result: result) }
                if emit { drainEmissions() }
            }
        }
    }

    /// Delivers ready results in input order while this thread holds the emitter role.
    @inlinable
    func drainEmissions() {
        var (emission, target) = lock.guarded { (machine.nextEmission(), downstream) }
        while true {
            switch emission {
            case .idle:
                return
            case .value(let output):
                guard let target else { return }
                let more = target.receive(output)
                let (count, subscription, next) = lock.guarded {
                    () -> (Int, (any Subscription)?, Machine.Emission) in
                    let count = machine.delivered(more: more)
                    return (count, upstream, machine.nextEmission())
                }
                emission = next
                if count > 0 {
                    switch next {
                    case .value, .idle: subscription?.request(.max(count))
                    case .failure, .finished: break  // ended: asking for more would be wasted
                    }
                }
            case .failure(let error, let cancelUpstream, let workers):
                let (subscription, last, task) = lock.guarded { () -> ((any Subscription)?, Downstream?, Task<Void, Never>?) in
                    let subscription = upstream
                    upstream = nil
                    return (subscription, releaseResources(), takeTask())
                }
                for worker in workers { worker.resume() }
                task?.cancel()
                if cancelUpstream { subscription?.cancel() }
                last?.receive(completion: .failure(error))
                return
            case .finished(let workers):
                let (last, task) = lock.guarded { () -> (Downstream?, Task<Void, Never>?) in
                    upstream = nil
                    return (releaseResources(), takeTask())
                }
                for worker in workers { worker.resume() }
                task?.cancel()
                last?.receive(completion: .finished)
                return
            }
        }
    }
}
