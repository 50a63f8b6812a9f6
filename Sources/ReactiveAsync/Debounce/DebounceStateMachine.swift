/// The rules of `debounce`, without threads: which continuation to resume with what, as actions.
///
/// Generic over the things it hands back (a waiting `next()`, the upstream loop waiting for demand,
/// the clock loop waiting for a deadline, the operator's task) so it can be tested with plain values.
/// The base is pulled only while a `next()` waits (as the package's debounce does); every element
/// re-arms the deadline; the clock loop sleeps to the latest deadline and delivers the pending
/// element when it is still the latest. The base's finish delivers the pending element at once and
/// then finishes; its failure drops the pending element and fails (the package's tests
/// `test_finishDoesntDebounce`, `test_throwDoesntDebounce`).
struct DebounceStateMachine<Element, Instant: InstantProtocol, Downstream, Gate, Alarm, Handle> {
    private struct Running {
        var task: Handle?
        var downstream: Downstream?
        var gate: Gate?
        var alarm: Alarm?
        var pending: (element: Element, deadline: Instant)?
        /// The pending element's deadline passed while nobody asked: the next `next()` takes it.
        var pendingIsDue = false
    }

    private enum State {
        case initial
        case running(Running)
        /// The base finished while an element was pending and nobody asked for it.
        case finishing(Element)
        /// The base failed while nobody asked; the next `next()` throws.
        case failed(any Error)
        case finished
    }

    private var state = State.initial

    typealias NextAction = GatedNextAction<Gate, Element>

    /// A `next()` arrives at `now`.
    mutating func next(_ downstream: Downstream, now: Instant) -> NextAction {
        switch state {
        case .initial:
            state = .running(Running(downstream: downstream))
            return .startTask
        case .running(var running):
            if let pending = running.pending, running.pendingIsDue || pending.deadline <= now {
                running.pending = nil
                running.pendingIsDue = false
                state = .running(running)
                return .deliver(pending.element)
            }
            running.downstream = downstream
            let gate = running.gate
            running.gate = nil
            state = .running(running)
            return gate.map { .resumeGate($0) } ?? .suspend
        case .finishing(let element):
            state = .finished
            return .deliver(element)
        case .failed(let error):
            state = .finished
            return .fail(error)
        case .finished:
            return .deliver(nil)
        }
    }

    /// The task started; returns it back when the operator already ended (cancel it).
    mutating func taskStarted(_ task: Handle) -> Handle? {
        guard case .running(var running) = state else { return task }
        running.task = task
        state = .running(running)
        return nil
    }

    typealias WaitAction = GateAction

    /// The upstream loop is about to pull the base: it may while a `next()` waits.
    mutating func upstreamWantsDemand(_ gate: Gate) -> WaitAction {
        guard case .running(var running) = state else { return .stop }
        if running.downstream != nil { return .proceed }
        running.gate = gate
        state = .running(running)
        return .suspend
    }

    /// The base produced `element`; its deadline is `deadline`. Returns the idle clock loop to wake.
    mutating func elementProduced(_ element: Element, deadline: Instant) -> Alarm? {
        guard case .running(var running) = state else { return nil }
        running.pending = (element, deadline)
        running.pendingIsDue = false
        let alarm = running.alarm
        running.alarm = nil
        state = .running(running)
        return alarm
    }

    enum AlarmAction {
        case sleep(until: Instant)
        case suspend
        case stop
    }

    /// The clock loop asks for the deadline to sleep to.
    mutating func clockWantsDeadline(_ alarm: Alarm) -> AlarmAction {
        guard case .running(var running) = state else { return .stop }
        if let pending = running.pending, !running.pendingIsDue { return .sleep(until: pending.deadline) }
        running.alarm = alarm
        state = .running(running)
        return .suspend
    }

    /// The clock reached `deadline`: delivers the pending element when its deadline is still that one.
    mutating func clockFired(at deadline: Instant) -> (Downstream, Element)? {
        guard case .running(var running) = state, let pending = running.pending, pending.deadline <= deadline else { return nil }
        guard let downstream = running.downstream else {
            running.pendingIsDue = true
            state = .running(running)
            return nil
        }
        running.downstream = nil
        running.pending = nil
        state = .running(running)
        return (downstream, pending.element)
    }

    /// What ending hands back: the waiting `next()` with its result, loops to stop, the task to cancel.
    struct Ending {
        var downstream: Downstream?
        var result: Result<Element?, any Error> = .success(nil)
        var gate: Gate?
        var alarm: Alarm?
        var task: Handle?
    }

    /// The base finished: the pending element goes out now, then the end.
    mutating func upstreamFinished() -> Ending {
        guard case .running(let running) = state else { return Ending() }
        var ending = Ending(downstream: running.downstream, gate: running.gate, alarm: running.alarm, task: running.task)
        switch (running.pending, running.downstream) {
        case (let pending?, nil):
            state = .finishing(pending.element)
        case (let pending?, _?):
            ending.result = .success(pending.element)
            state = .finished
        case (nil, _):
            state = .finished
        }
        return ending
    }

    /// The base failed: the pending element is dropped and the failure goes out.
    mutating func upstreamThrew(_ error: any Error) -> Ending {
        guard case .running(let running) = state else { return Ending() }
        if running.downstream == nil {
            state = .failed(error)
        } else {
            state = .finished
        }
        return Ending(downstream: running.downstream, result: .failure(error), gate: running.gate, alarm: running.alarm, task: running.task)
    }

    /// The consumer's task was cancelled or its iterator dropped: everything ends, `next()` returns nil.
    mutating func cancelled() -> Ending {
        switch state {
        case .running(let running):
            state = .finished
            return Ending(downstream: running.downstream, gate: running.gate, alarm: running.alarm, task: running.task)
        case .initial, .finishing, .failed:
            state = .finished
            return Ending()
        case .finished:
            return Ending()
        }
    }
}
