@testable import Reactive
import ReactiveTestSupport
import Testing

/// The operators' state machines are plain values: drive them without threads or subscribers.
@Suite("Operators: step logic state machines")
struct StepLogicTests {
    private func describe<O, F>(_ step: Step<O, F>) -> String {
        switch step {
        case .emit(let value): return "emit(\(value))"
        case .skip(let demand): return "skip(\(demand))"
        case .finish(let value): return "finish(\(value.map { "\($0)" } ?? "nil"))"
        case .fail(let error): return "fail(\(error))"
        }
    }

    @Test("output(in:) skips, emits, then finishes with the last position")
    func output() {
        var logic = OutputLogic<Int, Never>(range: 1..<3)
        #expect(!logic.isFinishedAtStart)
        #expect([10, 11, 12].map { describe(logic.receive($0)) } == ["skip(max(1))", "emit(11)", "finish(12)"])
        #expect(OutputLogic<Int, Never>(range: 0..<0).isFinishedAtStart)
    }

    @Test("collect(count) absorbs, emits full arrays, and keeps the rest for the finish")
    func collectByCount() {
        var logic = CollectByCountLogic<Int, TestError>(count: 2)
        #expect(logic.demandFactor == 2)
        #expect([1, 2, 3].map { describe(logic.receive($0)) } == ["skip(max(0))", "emit([1, 2])", "skip(max(0))"])
        let (last, completion) = logic.complete(.finished)
        #expect(last == [3] && completion == .finished)
    }

    @Test("reducers never forward demand and publish their result on finish")
    func reducer() {
        var logic = ReduceLogic<Int, Int, TestError>(result: 0, next: +)
        #expect(logic.demandFactor == nil)
        _ = logic.receive(2)
        _ = logic.receive(3)
        let (result, completion) = logic.complete(.finished)
        #expect(result == 5 && completion == .finished)
        var failing = ReduceLogic<Int, Int, TestError>(result: 0, next: +)
        let (none, failure) = failing.complete(.failure(TestError()))
        #expect(none == nil && failure == .failure(TestError()))
    }

    @Test("replaceError turns a failure into a last value and finished")
    func replaceError() {
        var logic = ReplaceErrorLogic<Int, TestError>(replacement: -1)
        let (value, completion) = logic.complete(.failure(TestError()))
        #expect(value == -1 && completion == .finished)
    }
}
