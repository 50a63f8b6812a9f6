import Testing

@testable import ReactiveAsync

/// The state machine with plain values for its continuations: no threads, no clock.
private typealias Machine = DebounceStateMachine<String, ManualClock.Instant, String, String, String, String>

private func at(_ seconds: Int) -> ManualClock.Instant { .zero.advanced(by: .seconds(seconds)) }

/// Whether a deadline has passed at `now`: what the storage hands the machine's `next`.
private func due(at now: Int) -> (ManualClock.Instant) -> Bool { { $0 <= at(now) } }

@Suite struct DebounceStateMachineTests {
    @Test("the first next() starts the task; later ones let the upstream pull")
    func firstNextStartsTask() {
        var machine = Machine()
        guard case .startTask = machine.next("d1", isDue: due(at: 0)) else { Issue.record("expected startTask"); return }
        #expect(machine.taskStarted("task") == nil)
        guard case .proceed = machine.upstreamWantsDemand("gate") else { Issue.record("expected proceed"); return }
    }

    @Test("a newer element moves the deadline: the clock firing for the old one delivers nothing")
    func staleDeadline() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        guard case .suspend = machine.clockWantsDeadline("alarm") else { Issue.record("expected the clock to wait"); return }
        let woken = machine.elementProduced("a", deadline: at(3))
        #expect(woken?.0 == "alarm")
        #expect(machine.elementProduced("b", deadline: at(4)) == nil)  // the clock already sleeps
        let first = woken?.generation ?? 0
        #expect(machine.clockFired(generation: first) == nil)
        guard case .sleep(until: at(4), let second) = machine.clockWantsDeadline("alarm") else {
            Issue.record("expected the clock to sleep to b's deadline")
            return
        }
        #expect(second != first)
        #expect(machine.clockFired(generation: second).map { "\($0.0) \($0.1)" } == "d1 b")
    }

    @Test("an element due while nobody asks goes to the next next() at once")
    func dueWithoutDemand() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        guard case .suspend = machine.clockWantsDeadline("alarm") else { Issue.record("expected the clock to wait"); return }
        let a = machine.elementProduced("a", deadline: at(1))?.generation ?? 0
        #expect(machine.clockFired(generation: a).map { "\($0.0) \($0.1)" } == "d1 a")
        _ = machine.elementProduced("b", deadline: at(2))
        guard case .sleep(until: at(2), let b) = machine.clockWantsDeadline("alarm") else { Issue.record("expected a sleep"); return }
        #expect(machine.clockFired(generation: b) == nil)  // nobody asks: b is due
        guard case .deliver(let element) = machine.next("d2", isDue: due(at: 5)) else { Issue.record("expected delivery"); return }
        #expect(element == "b")
    }

    @Test("the base's finish hands the pending element to the waiting next(), then nil")
    func finishDeliversPending() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        _ = machine.taskStarted("task")
        _ = machine.elementProduced("a", deadline: at(3))
        let ending = machine.upstreamFinished()
        #expect(ending.downstream == "d1")
        #expect((try? ending.result.get()) == "a")
        #expect(ending.task == "task")
        guard case .deliver(nil) = machine.next("d2", isDue: due(at: 1)) else { Issue.record("expected the end"); return }
    }

    @Test("a failure while nobody asks is thrown by the next next(), once")
    func failureWaitsForNext() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        _ = machine.clockWantsDeadline("alarm")
        let a = machine.elementProduced("a", deadline: at(1))?.generation ?? 0
        _ = machine.clockFired(generation: a)
        _ = machine.upstreamThrew(CancellationError())
        guard case .fail = machine.next("d2", isDue: due(at: 2)) else { Issue.record("expected the failure"); return }
        guard case .deliver(nil) = machine.next("d3", isDue: due(at: 2)) else { Issue.record("expected the end"); return }
    }

    @Test("cancellation hands back everything waiting and ends with nil")
    func cancellation() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        _ = machine.taskStarted("task")
        _ = machine.clockWantsDeadline("alarm")
        let ending = machine.cancelled()
        #expect(ending.downstream == "d1" && ending.alarm == "alarm" && ending.task == "task")
        #expect((try? ending.result.get()) == .some(nil))
        guard case .stop = machine.upstreamWantsDemand("gate") else { Issue.record("expected stop"); return }
    }

    @Test("a next() after the deadline takes the pending element before the clock loop reports it")
    func dueBeforeTheClockFires() {
        var machine = Machine()
        _ = machine.next("d1", isDue: due(at: 0))
        _ = machine.clockWantsDeadline("alarm")
        let a = machine.elementProduced("a", deadline: at(1))?.generation ?? 0
        #expect(machine.clockFired(generation: a).map { "\($0.0) \($0.1)" } == "d1 a")
        _ = machine.elementProduced("b", deadline: at(2))
        guard case .suspend = machine.next("d2", isDue: due(at: 1)) else { Issue.record("b is not due at 1"); return }
        guard case .sleep(until: at(2), let b) = machine.clockWantsDeadline("alarm") else { Issue.record("expected a sleep"); return }
        #expect(machine.clockFired(generation: b).map { "\($0.0) \($0.1)" } == "d2 b")
        _ = machine.elementProduced("c", deadline: at(3))
        // The clock loop has not reported c's deadline, but it has passed when d3 asks.
        guard case .deliver(.some("c")) = machine.next("d3", isDue: due(at: 3)) else { Issue.record("c is due at 3"); return }
    }
}
