import Reactive
import ReactiveTestSupport
import Testing

/// The `Equatable` conformances Combine declares on `Publishers.*` types: equal when their
/// upstreams (and stored parameters, and stored outputs) are equal.
@Suite("Publishers: Equatable as Combine's")
struct EquatableTests {
    let a = Just(1)
    let b = Just(2)

    @Test("upstream-only operators: Count, First, Last, Collect, IgnoreOutput, SetFailureType")
    func upstreamOnly() {
        #expect(Publishers.Count(upstream: a) == Publishers.Count(upstream: a))
        #expect(Publishers.Count(upstream: a) != Publishers.Count(upstream: b))
        #expect(Publishers.First(upstream: a) == Publishers.First(upstream: a))
        #expect(Publishers.First(upstream: a) != Publishers.First(upstream: b))
        #expect(Publishers.Last(upstream: a) == Publishers.Last(upstream: a))
        #expect(Publishers.Last(upstream: a) != Publishers.Last(upstream: b))
        #expect(Publishers.Collect(upstream: a) == Publishers.Collect(upstream: a))
        #expect(Publishers.Collect(upstream: a) != Publishers.Collect(upstream: b))
        #expect(Publishers.IgnoreOutput(upstream: a) == Publishers.IgnoreOutput(upstream: a))
        #expect(Publishers.IgnoreOutput(upstream: a) != Publishers.IgnoreOutput(upstream: b))
        typealias Typed = Publishers.SetFailureType<Just<Int>, TestError>
        #expect(Typed(upstream: a) == Typed(upstream: a))
        #expect(Typed(upstream: a) != Typed(upstream: b))
    }

    @Test("operators with parameters: CollectByCount, Drop, Output, Contains")
    func withParameters() {
        #expect(Publishers.CollectByCount(upstream: a, count: 2) == Publishers.CollectByCount(upstream: a, count: 2))
        #expect(Publishers.CollectByCount(upstream: a, count: 2) != Publishers.CollectByCount(upstream: a, count: 3))
        #expect(Publishers.Drop(upstream: a, count: 1) == Publishers.Drop(upstream: a, count: 1))
        #expect(Publishers.Drop(upstream: a, count: 1) != Publishers.Drop(upstream: b, count: 1))
        #expect(Publishers.Output(upstream: a, range: 0..<2) == Publishers.Output(upstream: a, range: 0..<2))
        #expect(Publishers.Output(upstream: a, range: 0..<2) != Publishers.Output(upstream: a, range: 1..<2))
        #expect(Publishers.Contains(upstream: a, output: 1) == Publishers.Contains(upstream: a, output: 1))
        #expect(Publishers.Contains(upstream: a, output: 1) != Publishers.Contains(upstream: a, output: 2))
    }

    @Test("operators that store a replacement: ReplaceEmpty, ReplaceError")
    func replacements() {
        #expect(Publishers.ReplaceEmpty(upstream: a, output: 0) == Publishers.ReplaceEmpty(upstream: a, output: 0))
        #expect(Publishers.ReplaceEmpty(upstream: a, output: 0) != Publishers.ReplaceEmpty(upstream: a, output: 9))
        let failing = Fail<Int, TestError>(error: TestError())
        #expect(Publishers.ReplaceError(upstream: failing, output: 0) == Publishers.ReplaceError(upstream: failing, output: 0))
        #expect(Publishers.ReplaceError(upstream: failing, output: 0) != Publishers.ReplaceError(upstream: failing, output: 1))
    }

    @Test("Publishers.Sequence is equal when its sequences are")
    func sequence() {
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect([1, 2].publisher != [2, 1].publisher)
        #expect(Publishers.Sequence<[Int], TestError>(sequence: [1]) == Publishers.Sequence(sequence: [1]))
    }
}
