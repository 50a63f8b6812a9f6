import Testing
import Reactive
import ReactiveTestSupport

@Suite("Core: Demand")
struct DemandTests {
    @Test("C10 demand arithmetic saturates and never traps")
    func saturates() {
        #expect(Subscribers.Demand.max(Int.max) + 10 == .unlimited)
        #expect(Subscribers.Demand.max(3) - 5 == .none)
        #expect(Subscribers.Demand.unlimited - 5 == .unlimited)
        #expect(Subscribers.Demand.max(Int.max) * 2 == .unlimited)
        #expect(Subscribers.Demand.max(-3) == .none)
        #expect(Subscribers.Demand.max(2) + (-5) == .none)
        #expect(Subscribers.Demand.max(2) > 1)
        #expect(Subscribers.Demand.unlimited > Int.max)
        #expect(Subscribers.Demand.max(4).max == 4)
        #expect(Subscribers.Demand.unlimited.max == nil)
    }
}

@Suite("Core: Sequence, map, filter, sink")
struct CoreChainTests {
    @Test("C09 demand is additive: initial plus what receive returns")
    func additiveDemand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sub.onValue = { value, _ in value == 1 ? .max(1) : .none }
        (1...10).publisher.subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        sub.request(.max(2))
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.violations.isEmpty)
    }

    @Test("C20 request from inside receive does not recurse over 100,000 elements")
    func noRecursion() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1)); return .none
        }
        (1...100_000).publisher.subscribe(sub)
        #expect(sub.values.count == 100_000)
        #expect(sub.maxNesting <= 1)
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C13 filter asks upstream for one more per dropped value")
    func filterDemand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.map { $0 * 10 }.filter { $0 % 20 == 0 }.subscribe(sub)
        #expect(sub.values == [20, 40])
        #expect(sub.violations.isEmpty)
    }

    @Test("sink receives every value and the completion")
    func sinkReceivesAll() {
        var seen: [Int] = []
        var done = false
        let c = [1, 2, 3].publisher.sink(receiveCompletion: { _ in done = true }, receiveValue: { seen.append($0) })
        #expect(seen == [1, 2, 3])
        #expect(done)
        c.cancel()
    }

    @Test("C21 cancel from inside receive stops delivery at once")
    func cancelInsideReceive() {
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, s in
            if value == 3 { s.cancel() }
            return .none
        }
        (1...10).publisher.subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.completion == nil)
    }

    @Test("C01 Just, Empty and Fail send a subscription first")
    func subscriptionFirst() {
        let a = TestSubscriber<Int, Never>()
        Just(1).subscribe(a)
        #expect(a.events == [.subscription, .value(1), .finished])
        let b = TestSubscriber<Int, Never>()
        Empty<Int, Never>().subscribe(b)
        #expect(b.events == [.subscription, .finished])
        let c = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError()).subscribe(c)
        #expect(c.events == [.subscription, .failure(TestError())])
    }
}
