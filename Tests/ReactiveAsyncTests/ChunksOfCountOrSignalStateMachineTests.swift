import Testing

@testable import ReactiveAsync

/// The state machine with plain values for its continuations and task: no threads, no clock.
private typealias Machine = ChunksOfCountOrSignalStateMachine<String, String, String, String>

@Suite struct ChunksOfCountOrSignalStateMachineTests {
    @Test("a chunk closes at the count and goes to the waiting next()")
    func closesAtCount() {
        var machine = Machine(count: 2)
        guard case .startTask = machine.next("d1") else { Issue.record("expected startTask"); return }
        #expect(machine.elementProduced("a") == nil)
        let closed = machine.elementProduced("b")
        #expect(closed?.0 == "d1" && closed?.1 == ["a", "b"])
    }

    @Test("a signal closes a non-empty chunk and ignores an empty one")
    func signalCloses() {
        var machine = Machine(count: nil)
        _ = machine.next("d1")
        #expect(machine.signalled() == nil)
        _ = machine.elementProduced("a")
        let closed = machine.signalled()
        #expect(closed?.0 == "d1" && closed?.1 == ["a"])
    }

    @Test("a chunk closed while nobody asks waits for the next next(), and the base waits too")
    func closedWithoutDemand() {
        var machine = Machine(count: 1)
        _ = machine.next("d1")
        _ = machine.elementProduced("a")  // to d1
        _ = machine.elementProduced("b")  // nobody asks: kept
        guard case .suspend = machine.baseWantsDemand("gate") else { Issue.record("the base should wait"); return }
        guard case .deliver(let chunk) = machine.next("d2") else { Issue.record("expected the kept chunk"); return }
        #expect(chunk == ["b"])
    }

    @Test("the base's finish sends the partial chunk, then the end")
    func finishSendsPartial() {
        var machine = Machine(count: 5)
        _ = machine.next("d1")
        _ = machine.elementProduced("a")
        let ending = machine.baseFinished()
        #expect(ending.downstream == "d1")
        #expect((try? ending.result.get()) == ["a"])
        guard case .deliver(nil) = machine.next("d2") else { Issue.record("expected the end"); return }
    }

    @Test("a failure drops the partial chunk")
    func failureDropsPartial() {
        var machine = Machine(count: 5)
        _ = machine.next("d1")
        _ = machine.elementProduced("a")
        let ending = machine.failed(CancellationError())
        #expect(throws: CancellationError.self) { try ending.result.get() }
    }

    // Unlike the package, whose merge-based loop returns the partial chunk on cancellation.
    @Test("cancellation ends with nil and no partial chunk")
    func cancellationDropsPartial() {
        var machine = Machine(count: 5)
        _ = machine.next("d1")
        _ = machine.taskStarted("task")
        _ = machine.elementProduced("a")
        let ending = machine.cancelled()
        #expect(ending.task == "task" && ending.downstream == "d1")
        #expect((try? ending.result.get()) == .some(nil))
        guard case .deliver(nil) = machine.next("d2") else { Issue.record("expected the end"); return }
    }
}
