@testable import Reactive
import Testing

/// The debounce state machine on its own: no threads, no scheduler.
@Suite("DebounceStateMachine")
struct DebounceStateMachineTests {
    @Test("only the latest generation delivers")
    func latestOnly() {
        var machine = DebounceStateMachine<String>()
        machine.request(.unlimited)
        let first = machine.receive("a")!
        let second = machine.receive("b")!
        #expect(!machine.isCurrent(first))
        #expect(machine.timerFired(first) == nil)
        #expect(machine.timerFired(second) == "b")
        #expect(machine.timerFired(second) == nil)
    }

    @Test("no demand: the debounced value is dropped")
    func demand() {
        var machine = DebounceStateMachine<String>()
        let generation = machine.receive("a")!
        #expect(machine.timerFired(generation) == nil)
        machine.request(.max(1))
        let next = machine.receive("b")!
        #expect(machine.timerFired(next) == "b")
        #expect(machine.demand == .none)
    }

    @Test("end drops the pending value and refuses new ones")
    func end() {
        var machine = DebounceStateMachine<String>()
        machine.request(.unlimited)
        let generation = machine.receive("a")!
        machine.end()
        #expect(machine.timerFired(generation) == nil)
        #expect(machine.receive("b") == nil)
    }
}
