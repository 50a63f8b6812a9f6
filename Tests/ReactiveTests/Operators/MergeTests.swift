import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: merge")
struct MergeTests {
    @Test("values of both inputs, finished after both finish")
    func values() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(sub)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        #expect(sub.completion == nil)
        b.send(4)
        b.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C35 the first failure fails the output and cancels the rest")
    func failureCancelsRest() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let c = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        a.merge(with: b, c).subscribe(sub)
        b.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .failure(TestError())])
        #expect(a.last?.isCancelled == true)
        #expect(c.last?.isCancelled == true)
        a.send(1)
        c.send(completion: .finished)
        #expect(sub.events.count == 2)
    }

    @Test("merge of 2 to 8 publishers delivers every value", arguments: 2...8)
    func arities(count: Int) {
        let sub = TestSubscriber<Int, Never>()
        let p = { (i: Int) in Just(i) }
        switch count {
        case 2: p(1).merge(with: p(2)).subscribe(sub)
        case 3: p(1).merge(with: p(2), p(3)).subscribe(sub)
        case 4: p(1).merge(with: p(2), p(3), p(4)).subscribe(sub)
        case 5: p(1).merge(with: p(2), p(3), p(4), p(5)).subscribe(sub)
        case 6: p(1).merge(with: p(2), p(3), p(4), p(5), p(6)).subscribe(sub)
        case 7: p(1).merge(with: p(2), p(3), p(4), p(5), p(6), p(7)).subscribe(sub)
        default: p(1).merge(with: p(2), p(3), p(4), p(5), p(6), p(7), p(8)).subscribe(sub)
        }
        #expect(sub.values == Array(1...count))
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("Merge3 … Merge8 are the types merge(with:) returns")
    func types() {
        let j = Just(1)
        let m3: Publishers.Merge3<Just<Int>, Just<Int>, Just<Int>> = j.merge(with: j, j)
        let m8: Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
            j.merge(with: j, j, j, j, j, j, j)
        #expect(m3.c.output == 1)
        #expect(m8.h.output == 1)
    }

    @Test("MergeMany, merge(with: Self) and an empty MergeMany")
    func mergeMany() {
        let sub = TestSubscriber<Int, Never>()
        Publishers.MergeMany((1...5).map { Just($0) }).subscribe(sub)
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.completion == .finished)
        let same: Publishers.MergeMany<Just<Int>> = Just(1).merge(with: Just(2))
        let sub2 = TestSubscriber<Int, Never>()
        same.merge(with: Just(3)).subscribe(sub2)
        #expect(sub2.values == [1, 2, 3])
        let empty = TestSubscriber<Int, Never>()
        Publishers.MergeMany<Just<Int>>([]).subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
    }

    @Test("C08 never more values than demanded; the rest wait")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        (1...5).publisher.merge(with: (6...10).publisher).subscribe(sub)
        #expect(sub.values.count == 3)
        sub.request(.max(5))
        #expect(sub.values.count == 8)
        sub.request(.max(2))
        #expect(sub.values.sorted() == Array(1...10))
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C18 cancel cancels every input")
    func cancel() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(sub)
        sub.cancel()
        #expect(a.last?.isCancelled == true)
        #expect(b.last?.isCancelled == true)
        a.send(1)
        #expect(sub.values.isEmpty)
    }

    @Test("C25 a value sent from inside receive is queued, not nested")
    func reentrantValue() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, _ in
            if value == 1 { b.send(2) }
            return .none
        }
        a.merge(with: b).subscribe(sub)
        a.send(1)
        #expect(sub.values == [1, 2])
        #expect(sub.maxNesting == 1)
    }

    @Test("merging a merge flattens to the next arity, as in Combine")
    func flattening() {
        let two = Publishers.Merge(Just(1), Just(2))
        let three: Publishers.Merge3<Just<Int>, Just<Int>, Just<Int>> = two.merge(with: Just(3))
        let four: Publishers.Merge4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = three.merge(with: Just(4))
        let eight = four.merge(with: Just(5)).merge(with: Just(6)).merge(with: Just(7)).merge(with: Just(8))
        let _: Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> = eight
        let sub = TestSubscriber<Int, Never>()
        eight.subscribe(sub)
        #expect(sub.values.sorted() == Array(1...8))
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
        let mixed = recordSubscriber(Just(1).merge(with: [2, 3].publisher).merge(with: Empty()))
        #expect(mixed.values.sorted() == [1, 2, 3])
    }
}
