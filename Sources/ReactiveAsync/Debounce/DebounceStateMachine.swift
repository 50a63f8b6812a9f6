/// The rules of `debounce`, without threads: which continuation to resume with what, as actions.
///
/// Generic over the things it hands back (a waiting `next()`, the upstream loop waiting for demand,
/// the clock loop waiting for a deadline, the operator's task) and over the element and its
/// deadline, so it can be tested with plain values; `DebounceCore` runs it over type-erased
/// elements and deadlines. It never compares deadlines itself: `next()` is told whether the
/// pending element is due, and the clock loop names the element it slept for by its generation
/// (each element produced gets the next one). The base is pulled only while a `next()` waits (as
/// the package's debounce does); every element re-arms the deadline; the clock loop sleeps to the
/// latest deadline and delivers the pending element when it is still the latest. The base's finish
/// delivers the pending element at once and then finishes; its failure drops the pending element
/// and fails (the package's tests `test_finishDoesntDebounce`, `test_throwDoesntDebounce`).
///
/// The state is flat stored properties, changed in place: matched out of an enum's payload and
/// stored back, the running state was copied on every event (callgrind: 3% of `async-debounce`).
struct DebounceStateMachine<Element, Deadline, Downstream, Gate, Alarm, Handle> {
    private enum Phase {
        case initial
        case running
        /// The base finished while an element was pending and nobody asked: `finishing` holds it.
        case finishing
        /// The base failed while nobody asked: the next `next()` throws `failure`.
        case failed
        case finished
    }

    /// An element waiting for its deadline, and its generation.
    struct Pending {
        var element: Element
        var deadline: Deadline
        var generation: UInt64
    }

    private var phase = Phase.initial
    private var task: Handle?
    private var downstream: Downstream?
    private var gate: Gate?
    private var alarm: Alarm?
    private var pending: Pending?
    /// The pending element's deadline passed while nobody asked: the next `next()` takes it.
    private var pendingIsDue = false
    private var generation: UInt64 = 0
    private var finishing: Element?
    private var failure: (any Error)?

    typealias NextAction = GatedNextAction<Gate, Element>

    /// A `next()` arrives; `isDue` says whether a deadline has passed (called under the lock, on
    /// the pending element's deadline only).
    mutating func next(_ downstream: Downstream, isDue: (Deadline) -> Bool) -> NextAction {
        switch phase {
        case .initial:
            phase = .running
            self.downstream = downstream
            return .startTask
        case .running:
            if let ready = pending, pendingIsDue || isDue(ready.deadline) {
                pending = nil
                pendingIsDue = false
                return .deliver(ready.element)
            }
            self.downstream = downstream
            guard let gate else { return .suspend }
            self.gate = nil
            return .resumeGate(gate)
        case .finishing:
            phase = .finished
            let element = finishing
            finishing = nil
            return .deliver(element)
        case .failed:
            phase = .finished
            let error = failure ?? CancellationError()
            failure = nil
            return .fail(error)
        case .finished:
            return .deliver(nil)
        }
    }

    /// The task started; returns it back when the operator already ended (cancel it).
    mutating func taskStarted(_ task: Handle) -> Handle? {
        guard phase == .running else { return task }
        self.task = task
        return nil
    }

    typealias WaitAction = GateAction

    /// The upstream loop is about to pull the base: it may while a `next()` waits.
    mutating func upstreamWantsDemand(_ gate: Gate) -> WaitAction {
        guard phase == .running else { return .stop }
        if downstream != nil { return .proceed }
        self.gate = gate
        return .suspend
    }

    /// The base produced `element`, due at `deadline`. Returns the idle clock loop to wake, with
    /// the element's generation (to sleep until `deadline` for).
    mutating func elementProduced(_ element: Element, deadline: Deadline) -> (Alarm, generation: UInt64)? {
        guard phase == .running else { return nil }
        generation &+= 1
        pending = Pending(element: element, deadline: deadline, generation: generation)
        pendingIsDue = false
        guard let idle = alarm else { return nil }
        alarm = nil
        return (idle, generation)
    }

    enum AlarmAction {
        /// Sleep until `deadline`, then report `clockFired(generation:)`.
        case sleep(until: Deadline, generation: UInt64)
        case suspend
        case stop
    }

    /// The clock loop asks for the deadline to sleep to.
    mutating func clockWantsDeadline(_ alarm: Alarm) -> AlarmAction {
        guard phase == .running else { return .stop }
        if let pending, !pendingIsDue { return .sleep(until: pending.deadline, generation: pending.generation) }
        self.alarm = alarm
        return .suspend
    }

    /// The clock reached the deadline of the element of `generation`: delivers it when it is still
    /// the pending one (a newer element moved the deadline otherwise).
    mutating func clockFired(generation: UInt64) -> (Downstream, Element)? {
        guard phase == .running, let ready = pending, ready.generation == generation else { return nil }
        guard let waiting = downstream else {
            pendingIsDue = true
            return nil
        }
        downstream = nil
        pending = nil
        return (waiting, ready.element)
    }

    /// What ending hands back: the waiting `next()` with its result, loops to stop, the task to cancel.
    struct Ending {
        var downstream: Downstream?
        var result: Result<Element?, any Error> = .success(nil)
        var gate: Gate?
        var alarm: Alarm?
        var task: Handle?
    }

    /// Takes everything waiting out of the machine for an `Ending`.
    private mutating func takeWaiting(result: Result<Element?, any Error> = .success(nil)) -> Ending {
        let ending = Ending(downstream: downstream, result: result, gate: gate, alarm: alarm, task: task)
        downstream = nil
        gate = nil
        alarm = nil
        task = nil
        pending = nil
        pendingIsDue = false
        return ending
    }

    /// The base finished: the pending element goes out now, then the end.
    mutating func upstreamFinished() -> Ending {
        guard phase == .running else { return Ending() }
        let element = pending?.element
        if downstream == nil, let element {
            phase = .finishing
            finishing = element
            return takeWaiting()
        }
        phase = .finished
        return takeWaiting(result: .success(element))
    }

    /// The base failed: the pending element is dropped and the failure goes out.
    mutating func upstreamThrew(_ error: any Error) -> Ending {
        guard phase == .running else { return Ending() }
        if downstream == nil {
            phase = .failed
            failure = error
        } else {
            phase = .finished
        }
        return takeWaiting(result: .failure(error))
    }

    /// The consumer's task was cancelled or its iterator dropped: everything ends, `next()` returns nil.
    mutating func cancelled() -> Ending {
        let wasRunning = phase == .running
        phase = .finished
        finishing = nil
        failure = nil
        guard wasRunning else { return Ending() }
        return takeWaiting()
    }
}
