@testable import Reactive
import ReactiveTestSupport
import Testing

/// The throttle state machine on its own: no threads, no scheduler, time is an `Int`.
@Suite("ThrottleStateMachine")
struct ThrottleStateMachineTests {
    typealias Machine = ThrottleStateMachine<String, TestError, Int>

    @Test("the first value is emitted at once; the next waits for the interval to end")
    func firstThenWait() {
        var machine = Machine(interval: 3, latest: true)
        machine.request(.unlimited)
        #expect(machine.receive("a", now: 0) == 0)
        #expect(machine.emit(now: 0)?.value == "a")
        #expect(machine.receive("b", now: 1) == 3)
        #expect(machine.receive("c", now: 2) == nil)
        #expect(machine.emit(now: 3)?.value == "c")
        #expect(machine.receive("d", now: 10) == 10)
    }

    @Test("latest: false keeps the first held value")
    func first() {
        var machine = Machine(interval: 3, latest: false)
        machine.request(.unlimited)
        _ = machine.receive("a", now: 0)
        _ = machine.emit(now: 0)
        _ = machine.receive("b", now: 1)
        _ = machine.receive("c", now: 2)
        #expect(machine.emit(now: 3)?.value == "b")
    }

    @Test("no demand: a value that would start an emission is dropped")
    func demand() {
        var machine = Machine(interval: 3, latest: true)
        #expect(machine.receive("a", now: 0) == nil)
        machine.request(.max(1))
        #expect(machine.receive("b", now: 1) == 1)
        #expect(machine.demand == .none)
        #expect(machine.receive("c", now: 1) == nil)  // replaces the held value, no new demand
        #expect(machine.emit(now: 1)?.value == "c")
    }

    @Test("a completion rides with the held value, or is emitted at once")
    func completion() {
        var machine = Machine(interval: 3, latest: true)
        machine.request(.unlimited)
        _ = machine.receive("a", now: 0)
        _ = machine.emit(now: 0)
        #expect(machine.receive("b", now: 1) == 3)
        #expect(machine.receive(completion: .failure(TestError()), now: 2) == nil)
        let emitted = machine.emit(now: 3)
        #expect(emitted?.value == "b")
        #expect(emitted?.completion == .failure(TestError()))

        var idle = Machine(interval: 3, latest: true)
        #expect(idle.receive(completion: .finished, now: 5) == 5)
        #expect(idle.emit(now: 5)?.completion == .finished)
    }

    @Test("after cancel nothing is emitted")
    func cancel() {
        var machine = Machine(interval: 3, latest: true)
        machine.request(.unlimited)
        _ = machine.receive("a", now: 0)
        machine.cancel()
        #expect(machine.emit(now: 0) == nil)
        #expect(machine.receive("b", now: 5) == nil)
    }
}
