/// The pure state of one `asyncMap` subscription: no locks, no threads, no tasks.
///
/// Every event (downstream demand, an upstream value or completion, a worker asking for work or
/// reporting a result, an emitter asking what to deliver, a cancel) is a mutating method that
/// returns what the caller must do once it has released the lock. `AsyncMapStorage` holds one
/// machine under its lock and performs those actions; tests drive the machine directly.
///
/// Demand accounting: `demand` is the downstream demand not yet used by an emission. Every input
/// asked for upstream, queued, being transformed or waiting in `ready` is *committed*: it will
/// use one unit of demand when it is emitted. Upstream is asked only for
/// `min(demand, maxConcurrent) - committed` more, so no transform starts without demand and at most
/// `maxConcurrent` inputs or results are ever held.
@usableFromInline
struct AsyncMapStateMachine<Input, Output, Failure: Error> {
    @usableFromInline typealias Worker = UnsafeContinuation<Void, Never>

    @usableFromInline
    enum Phase: Equatable {
        /// Values flow.
        case active
        /// Upstream finished; what is committed is still transformed and emitted, then `.finished`.
        case draining
        /// Cancelled, failed or finished: nothing more is started or sent.
        case terminated
    }

    /// What a worker does next.
    @usableFromInline
    enum WorkerStep {
        case transform(index: Int, input: Input)
        case park
        case exit
    }

    /// What the emitter delivers next.
    @usableFromInline
    enum Emission {
        case value(Output)
        case failure(Failure, cancelUpstream: Bool, workers: [Worker])
        case finished(workers: [Worker])
        /// Nothing to deliver now; the emitter role is released.
        case idle
    }

    /// What a cancel or an upstream completion requires.
    @usableFromInline
    struct Termination {
        @usableFromInline var workers: [Worker] = []
        @usableFromInline var cancelTask = false
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline init() {}
    }

    @usableFromInline let maxConcurrent: Int
    @usableFromInline var phase = Phase.active
    @usableFromInline var demand = Subscribers.Demand.none
    /// Upstream values requested and not yet received.
    @usableFromInline var requested = 0
    /// Received values not yet handed to a worker, oldest first, with their sequence numbers.
    @usableFromInline var inputs: [(index: Int, input: Input)] = []
    @usableFromInline var inFlight = 0
    /// Results by `index % maxConcurrent`; at most `maxConcurrent` are committed, so slots never collide.
    @usableFromInline var ready: [Result<Output, Failure>?]
    @usableFromInline var readyCount = 0
    @usableFromInline var nextInputIndex = 0
    @usableFromInline var nextEmitIndex = 0
    @usableFromInline var parked: [Worker] = []
    /// One thread at a time delivers to downstream; the others leave their results in `ready`.
    @usableFromInline var emitting = false
    /// A transform failed: start nothing new; the failure is emitted in order.
    @usableFromInline var transformFailed = false
    /// An upstream failure that arrived while another thread was emitting.
    @usableFromInline var pendingUpstreamFailure: Failure?
    @usableFromInline var workersStarted = false

    @inlinable
    init(maxConcurrent: Int) {
        self.maxConcurrent = Swift.max(1, maxConcurrent)
        self.ready = Array(repeating: nil, count: self.maxConcurrent)
    }

    @inlinable
    var committed: Int { requested + inputs.count + inFlight + readyCount }

    /// Asks upstream for what demand and the concurrency limit allow, and records it as requested.
    @inlinable
    mutating func takeUpstreamRequest() -> Int {
        guard phase == .active, !transformFailed else { return 0 }
        let used = committed
        let room = maxConcurrent - used
        guard room > 0 else { return 0 }
        let wanted: Int
        if let finite = demand.max {
            wanted = Swift.min(room, finite - used)
        } else {
            wanted = room
        }
        guard wanted > 0 else { return 0 }
        requested += wanted
        return wanted
    }

    /// Downstream asked for more. Returns whether the worker task must be started and how many
    /// values to request upstream.
    @inlinable
    mutating func downstreamRequested(_ more: Subscribers.Demand) -> (startWorkers: Bool, upstream: Int) {
        guard phase != .terminated, more > 0 else { return (false, 0) }
        demand += more
        var start = false
        if !workersStarted {
            workersStarted = true
            start = true
        }
        return (start, takeUpstreamRequest())
    }

    /// A value arrived from upstream. Returns a parked worker to wake, if any.
    @inlinable
    mutating func upstreamValue(_ input: Input) -> Worker? {
        // Values beyond what was requested (a misbehaving upstream) or after the end are dropped:
        // buffering them would break the bound on held values.
        guard phase == .active, requested > 0 else { return nil }
        requested -= 1
        inputs.append((nextInputIndex, input))
        nextInputIndex += 1
        return parked.popLast()
    }

    /// Upstream finished. Returns the completion to send now (if nothing is left to emit) and the
    /// workers to wake.
    @inlinable
    mutating func upstreamFinished() -> Termination {
        var result = Termination()
        guard phase == .active else { return result }
        phase = .draining
        requested = 0
        if committed == 0 && !emitting {
            result = terminate()
            result.completion = .finished
        } else if inputs.isEmpty {
            // Idle workers have nothing more to do.
            result.workers = parked
            parked = []
        }
        return result
    }

    /// Upstream failed: the failure is sent at once (as `flatMap` does), dropping what is in
    /// flight, unless another thread is emitting; then that emitter sends it after its value.
    @inlinable
    mutating func upstreamFailed(_ error: Failure) -> Termination {
        guard phase != .terminated else { return Termination() }
        if emitting {
            pendingUpstreamFailure = error
            phase = .draining
            requested = 0
            inputs = []
            var result = Termination()
            result.cancelTask = true
            return result
        }
        var result = terminate()
        result.completion = .failure(error)
        return result
    }

    /// Downstream cancelled.
    @inlinable
    mutating func cancelled() -> Termination {
        guard phase != .terminated else { return Termination() }
        return terminate()
    }

    @inlinable
    mutating func terminate() -> Termination {
        var result = Termination()
        phase = .terminated
        result.workers = parked
        result.cancelTask = workersStarted
        parked = []
        inputs = []
        if readyCount > 0 {
            for slot in ready.indices { ready[slot] = nil }
            readyCount = 0
        }
        requested = 0
        return result
    }

    /// A worker asks for its next input.
    @inlinable
    mutating func nextWork() -> WorkerStep {
        if phase == .terminated { return .exit }
        if !transformFailed, !inputs.isEmpty {
            let (index, input) = inputs.removeFirst()
            inFlight += 1
            return .transform(index: index, input: input)
        }
        if phase == .draining && inputs.isEmpty { return .exit }
        return .park
    }

    /// A worker found nothing to do and parks. Returns `false` when it must not wait (work arrived
    /// or the subscription ended between `nextWork()` and here); the caller then resumes it at once.
    @inlinable
    mutating func park(_ worker: Worker) -> Bool {
        if phase == .terminated || (phase == .draining && inputs.isEmpty) { return false }
        if !transformFailed && !inputs.isEmpty { return false }
        parked.append(worker)
        return true
    }

    /// A transform finished. Returns whether the caller becomes the emitter.
    @inlinable
    mutating func transformed(index: Int, result: Result<Output, Failure>) -> Bool {
        guard phase != .terminated else { return false }
        inFlight -= 1
        if case .failure = result { transformFailed = true }
        ready[index % maxConcurrent] = result
        readyCount += 1
        guard !emitting, ready[nextEmitIndex % maxConcurrent] != nil else { return false }
        emitting = true
        return true
    }

    /// The emitter delivered a value and downstream returned `more`; returns how many values to
    /// request upstream.
    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> Int {
        guard phase != .terminated else { return 0 }
        if more > 0 { demand += more }
        return takeUpstreamRequest()
    }

    /// The emitter asks what to deliver next, in input order.
    @inlinable
    mutating func nextEmission() -> Emission {
        if phase == .terminated {
            emitting = false
            return .idle
        }
        if let error = pendingUpstreamFailure {
            pendingUpstreamFailure = nil
            emitting = false
            let end = terminate()
            return .failure(error, cancelUpstream: false, workers: end.workers)
        }
        let slot = nextEmitIndex % maxConcurrent
        if let result = ready[slot] {
            ready[slot] = nil
            readyCount -= 1
            nextEmitIndex += 1
            switch result {
            case .success(let output):
                demand -= 1
                return .value(output)
            case .failure(let error):
                emitting = false
                let end = terminate()
                return .failure(error, cancelUpstream: true, workers: end.workers)
            }
        }
        emitting = false
        if phase == .draining && committed == 0 {
            let end = terminate()
            return .finished(workers: end.workers)
        }
        return .idle
    }
}
