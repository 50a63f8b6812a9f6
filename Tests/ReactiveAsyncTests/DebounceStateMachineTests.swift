import Testing

@testable import ReactiveAsync

/// The state machine with plain values for its continuations: no threads, no clock.
private typealias Machine = DebounceStateMachine<String, ManualClock.Instant, String, String, String, String>

private func at(_ seconds: Int) -> ManualClock.Instant { .zero.advanced(by: .seconds(seconds)) }

@Suite struct DebounceStateMachineTests {
    @Test("the first next() starts the task; later ones let the upstream pull")
    func firstNextStartsTask() {
        var machine = Machine()
        guard case .startTask = machine.next("d1", now: at(0)) else { Issue.record("expected startTask"); return }
        #expect(machine.taskStarted("task") == nil)
        guard case .proceed = machine.upstreamWantsDemand("gate") else { Issue.record("expected proceed"); return }
    }

    @Test("a newer element moves the deadline: the clock firing for the old one delivers nothing")
    func staleDeadline() {
        var machine = Machine()
        _ = machine.next("d1", now: at(0))
        guard case .suspend = machine.clockWantsDeadline("alarm") else { Issue.record("expected the clock to wait"); return }
        #expect(machine.elementProduced("a", deadline: at(3)) == "alarm")
        #expect(machine.elementProduced("b", deadline: at(4)) == nil)  // the clock already sleeps
        #expect(machine.clockFired(at: at(3)) == nil)
        #expect(machine.clockFired(at: at(4)).map { "\($0.0) \($0.1)" } == "d1 b")
    }

    @Test("an element due while nobody asks goes to the next next() at once")
    func dueWithoutDemand() {
        var machine = Machine()
        _ = machine.next("d1", now: at(0))
        _ = machine.elementProduced("a", deadline: at(1))
        _ = machine.clockFired(at: at(1))  // delivers a to d1
        _ = machine.elementProduced("b", deadline: at(2))
        #expect(machine.clockFired(at: at(2)) == nil)  // nobody asks: b is due
        guard case .deliver(let element) = machine.next("d2", now: at(5)) else { Issue.record("expected delivery"); return }
        #expect(element == "b")
    }

    @Test("the base's finish hands the pending element to the waiting next(), then nil")
    func finishDeliversPending() {
        var machine = Machine()
        _ = machine.next("d1", now: at(0))
        _ = machine.taskStarted("task")
        _ = machine.elementProduced("a", deadline: at(3))
        let ending = machine.upstreamFinished()
        #expect(ending.downstream == "d1")
        #expect((try? ending.result.get()) == "a")
        #expect(ending.task == "task")
        guard case .deliver(nil) = machine.next("d2", now: at(1)) else { Issue.record("expected the end"); return }
    }

    @Test("a failure while nobody asks is thrown by the next next(), once")
    func failureWaitsForNext() {
        var machine = Machine()
        _ = machine.next("d1", now: at(0))
        _ = machine.elementProduced("a", deadline: at(1))
        _ = machine.clockFired(at: at(1))
        _ = machine.upstreamThrew(CancellationError())
        guard case .fail = machine.next("d2", now: at(2)) else { Issue.record("expected the failure"); return }
        guard case .deliver(nil) = machine.next("d3", now: at(2)) else { Issue.record("expected the end"); return }
    }

    @Test("cancellation hands back everything waiting and ends with nil")
    func cancellation() {
        var machine = Machine()
        _ = machine.next("d1", now: at(0))
        _ = machine.taskStarted("task")
        _ = machine.clockWantsDeadline("alarm")
        let ending = machine.cancelled()
        #expect(ending.downstream == "d1" && ending.alarm == "alarm" && ending.task == "task")
        #expect((try? ending.result.get()) == .some(nil))
        guard case .stop = machine.upstreamWantsDemand("gate") else { Issue.record("expected stop"); return }
    }
}
