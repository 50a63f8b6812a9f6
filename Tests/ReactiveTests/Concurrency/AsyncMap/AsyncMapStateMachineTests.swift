import Testing
@testable import Reactive

/// The state machine alone: no locks, no tasks.
@Suite("Bridges: asyncMap state machine")
struct AsyncMapStateMachineTests {
    typealias Machine = AsyncMapStateMachine<Int, Int, Never>

    @Test("the first demand starts the workers and asks upstream for one value")
    func firstDemand() {
        var machine = Machine(maxConcurrent: 1)
        let step = machine.downstreamRequested(.max(5))
        #expect(step.startWorkers)
        #expect(step.upstream == 1)
        let again = machine.downstreamRequested(.max(1))
        #expect(!again.startWorkers)
        #expect(again.upstream == 0, "one value is already committed")
    }

    @Test("upstream is asked for min(demand, maxConcurrent) minus what is committed")
    func requestBound() {
        var machine = Machine(maxConcurrent: 4)
        let first = machine.downstreamRequested(.max(2))
        #expect(first.upstream == 2)
        let second = machine.downstreamRequested(.max(10))
        #expect(second.upstream == 2)
        #expect(machine.committed == 4)
    }

    @Test("a value beyond what was requested is dropped")
    func valueBeyondDemand() {
        var machine = Machine(maxConcurrent: 1)
        _ = machine.upstreamValue(1)
        #expect(machine.inputs.isEmpty)
    }

    @Test("a value becomes work, its result is emitted, and delivery asks for the next")
    func oneCycle() {
        var machine = Machine(maxConcurrent: 1)
        _ = machine.downstreamRequested(.max(2))
        _ = machine.upstreamValue(10)
        guard case .transform(let index, let input) = machine.nextWork() else {
            Issue.record("expected work")
            return
        }
        #expect(index == 0 && input == 10)
        let emitter = machine.transformed(index: 0, result: .success(11))
        #expect(emitter, "the finisher becomes the emitter")
        guard case .value(11) = machine.nextEmission() else {
            Issue.record("expected value")
            return
        }
        let next = machine.delivered(more: .none)
        #expect(next == 1)
        guard case .idle = machine.nextEmission() else {
            Issue.record("expected idle")
            return
        }
        #expect(!machine.emitting)
    }

    @Test("results are emitted in input order")
    func ordered() {
        var machine = Machine(maxConcurrent: 2)
        _ = machine.downstreamRequested(.unlimited)
        _ = machine.upstreamValue(1)
        _ = machine.upstreamValue(2)
        _ = machine.nextWork()
        _ = machine.nextWork()
        let notHead = machine.transformed(index: 1, result: .success(20))
        #expect(!notHead, "1 is not the head")
        let head = machine.transformed(index: 0, result: .success(10))
        #expect(head)
        var emitted: [Int] = []
        while case .value(let v) = machine.nextEmission() {
            emitted.append(v)
            _ = machine.delivered(more: .none)
        }
        #expect(emitted == [10, 20])
    }

    @Test("finish with nothing committed completes at once; otherwise after the last emission")
    func finish() {
        var idle = Machine(maxConcurrent: 1)
        let end = idle.upstreamFinished()
        #expect(end.completion == .finished)
        #expect(idle.phase == .terminated)

        var busy = Machine(maxConcurrent: 1)
        _ = busy.downstreamRequested(.max(1))
        _ = busy.upstreamValue(1)
        _ = busy.nextWork()
        let pending = busy.upstreamFinished()
        #expect(pending.completion == nil)
        let emitter = busy.transformed(index: 0, result: .success(1))
        #expect(emitter)
        guard case .value = busy.nextEmission() else {
            Issue.record("expected value")
            return
        }
        _ = busy.delivered(more: .none)
        guard case .finished = busy.nextEmission() else {
            Issue.record("expected finished")
            return
        }
        #expect(busy.phase == .terminated)
    }

    @Test("cancel terminates: workers exit, results are dropped, nothing more is requested")
    func cancel() {
        var machine = Machine(maxConcurrent: 1)
        _ = machine.downstreamRequested(.max(3))
        _ = machine.upstreamValue(1)
        _ = machine.nextWork()
        let end = machine.cancelled()
        #expect(end.cancelTask)
        guard case .exit = machine.nextWork() else {
            Issue.record("expected exit")
            return
        }
        let dropped = machine.transformed(index: 0, result: .success(1))
        #expect(!dropped)
        let late = machine.downstreamRequested(.max(1))
        #expect(late.upstream == 0)
        let second = machine.cancelled()
        #expect(second.cancelTask == false, "a second cancel does nothing")
    }

    @Test("a failed transform stops new work and fails in order")
    func failure() {
        var machine = AsyncMapStateMachine<Int, Int, TestFailure>(maxConcurrent: 2)
        _ = machine.downstreamRequested(.unlimited)
        _ = machine.upstreamValue(1)
        _ = machine.upstreamValue(2)
        _ = machine.nextWork()
        _ = machine.nextWork()
        let second = machine.transformed(index: 1, result: .failure(TestFailure()))
        #expect(!second)
        let more = machine.downstreamRequested(.max(1))
        #expect(more.upstream == 0, "nothing new after a failure")
        let first = machine.transformed(index: 0, result: .success(1))
        #expect(first)
        guard case .value(1) = machine.nextEmission() else {
            Issue.record("expected value")
            return
        }
        _ = machine.delivered(more: .none)
        guard case .failure(_, let cancelUpstream, _) = machine.nextEmission() else {
            Issue.record("expected failure")
            return
        }
        #expect(cancelUpstream)
        #expect(machine.phase == .terminated)
    }
}

private struct TestFailure: Error {}
