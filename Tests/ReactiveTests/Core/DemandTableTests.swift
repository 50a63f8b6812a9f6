import Testing
import Reactive
import ReactiveTestSupport

@Suite("Core: demand table")
struct DemandTableTests {
    static let table: [(initial: Int, followUp: Int, perValue: Int, expected: Int)] = [
        (0, 0, 0, 0), (0, 3, 0, 3), (1, 0, 0, 1), (1, 2, 0, 3), (2, 0, 1, 10),
        (5, 5, 0, 10), (0, 1, 1, 10), (3, 0, 0, 3), (10, 0, 0, 10), (20, 0, 0, 10),
    ]

    @Test("C09 demand is additive: initial × follow-up × per-value returns give exact counts", arguments: table)
    func additive(row: (initial: Int, followUp: Int, perValue: Int, expected: Int)) {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(row.initial))
        sub.onValue = { _, _ in .max(row.perValue) }
        (1...10).publisher.subscribe(sub)
        if row.followUp > 0 { sub.request(.max(row.followUp)) }
        #expect(sub.values.count == row.expected)
        #expect(sub.violations.isEmpty)
    }

    @Test("C07 request(.none) is a no-op and never traps")
    func requestNone() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        (1...3).publisher.subscribe(sub)
        sub.request(.none)
        #expect(sub.values.isEmpty)
        sub.request(.max(1))
        #expect(sub.values == [1])
    }

    @Test("C10 demand comparisons with integers and negative counts")
    func comparisons() {
        #expect(Subscribers.Demand.max(3) < 4)
        #expect(!(Subscribers.Demand.max(3) < -1))
        #expect(Subscribers.Demand.none >= 0)
        #expect(Subscribers.Demand.max(0) == .none)
        #expect(Subscribers.Demand.unlimited - .unlimited == .unlimited)
        #expect(Subscribers.Demand.max(5) - .unlimited == .none)
        #expect(Subscribers.Demand.unlimited * 0 == .none)
        #expect(Subscribers.Demand.max(Int.max) + Int.max == .unlimited)
        #expect(Subscribers.Demand.max(1) + Int.min == .none)
    }

    @Test("C10 subtracting a negative count that overflows floors at zero, as Combine does")
    func subtractNegativeOverflow() {
        #expect(Subscribers.Demand.max(Int.max) - (-1) == .none)
        #expect(Subscribers.Demand.max(5) - Int.min == .none)
        #expect(Subscribers.Demand.max(5) - (-3) == .max(8))
        #expect(Subscribers.Demand.unlimited - (-1) == .unlimited)
        var demand = Subscribers.Demand.max(Int.max)
        demand -= -1
        #expect(demand == .none)
    }
}
