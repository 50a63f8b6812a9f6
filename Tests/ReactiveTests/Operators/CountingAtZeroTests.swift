import Reactive
import ReactiveTestSupport
import Testing

/// Every counting operator at 0, against a source that emits from inside the first request.
@Suite struct CountingAtZeroTests {
    @Test("prefix(0) emits nothing and finishes, even when the source emits synchronously (Combine)")
    func prefixZero() {
        let sub = TestSubscriber<Int, Never>()
        (1...5).publisher.prefix(0).subscribe(sub)
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("output(in: 0..<0) and output(at:) past the end emit nothing")
    func outputEmpty() {
        let empty = TestSubscriber<Int, Never>()
        (1...5).publisher.output(in: 0..<0).subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
        let past = TestSubscriber<Int, Never>()
        (1...3).publisher.output(at: 5).subscribe(past)
        #expect(past.values.isEmpty && past.events.last == .finished)
    }

    @Test("dropFirst(0) passes everything; prefix(1) exactly one; a manual source sees prefix(0) cancel it")
    func otherCounts() {
        let all = TestSubscriber<Int, Never>()
        (1...3).publisher.dropFirst(0).subscribe(all)
        #expect(all.values == [1, 2, 3])
        let one = TestSubscriber<Int, Never>()
        (1...3).publisher.prefix(1).subscribe(one)
        #expect(one.values == [1] && one.events.last == .finished)
        let upstream = ManualPublisher<Int, Never>()
        let manual = TestSubscriber<Int, Never>()
        upstream.prefix(0).subscribe(manual)
        upstream.send(1)
        #expect(manual.events == [.subscription, .finished])
    }
}
