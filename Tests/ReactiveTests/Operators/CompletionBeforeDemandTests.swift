import Reactive
import ReactiveTestSupport
import Testing

/// C03 as Combine does it: an operator that publishes one result at the end (first, last, min,
/// max, …) holds `.finished` for an empty upstream until the downstream has asked for something,
/// as it holds a result; buffer holds it the same way.
@Suite("Operators: completion before demand")
struct CompletionBeforeDemandTests {
    typealias Source = ManualPublisher<Int, TestError>

    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (Source) -> AnyPublisher<Int, TestError>
    }

    static let cases: [Case] = [
        Case(description: "first()") { $0.first().eraseToAnyPublisher() },
        Case(description: "first(where:)") { $0.first { $0 > 0 }.eraseToAnyPublisher() },
        Case(description: "last()") { $0.last().eraseToAnyPublisher() },
        Case(description: "last(where:)") { $0.last { $0 > 0 }.eraseToAnyPublisher() },
        Case(description: "min()") { $0.min().eraseToAnyPublisher() },
        Case(description: "max()") { $0.max().eraseToAnyPublisher() },
        Case(description: "buffer") { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher() },
    ]

    @Test("C03 an empty upstream's .finished waits for the first request", arguments: cases)
    func finishWaitsForDemand(_ c: Case) {
        let source = Source()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        c.make(source).subscribe(sub)
        source.send(completion: .finished)
        #expect(sub.events == [.subscription])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C03 with demand already there, an empty upstream's .finished passes at once", arguments: cases)
    func finishWithDemand(_ c: Case) {
        let source = Source()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        c.make(source).subscribe(sub)
        source.send(completion: .finished)
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("C05 cancel while holding the completion: nothing is delivered", arguments: cases)
    func cancelWhileHolding(_ c: Case) {
        let source = Source()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        c.make(source).subscribe(sub)
        source.send(completion: .finished)
        sub.cancel()
        sub.request(.max(1))
        #expect(sub.events == [.subscription])
    }

    @Test("C04 a failure is never held", arguments: cases)
    func failureNotHeld(_ c: Case) {
        let source = Source()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        c.make(source).subscribe(sub)
        source.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .failure(TestError())])
    }
}
