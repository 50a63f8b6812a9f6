import Reactive
import ReactiveTestSupport
import Testing

/// Combine's specialisations that fuse two operators of one family into one publisher: the type
/// a user sees is the single operator, and the behaviour is the two in a row.
@Suite("Operators: fused filter and map chains (Combine's specialisations)")
struct FusionTests {
    @Test("filter().filter() is one Publishers.Filter; the second test only sees what the first kept")
    func filterFilter() {
        let source = ManualPublisher<Int, TestError>()
        var secondSaw: [Int] = []
        let fused: Publishers.Filter<ManualPublisher<Int, TestError>> =
            source.filter { $0.isMultiple(of: 2) }.filter {
                secondSaw.append($0); return $0 > 2
            }
        let sub = recordSubscriber(fused, demand: .max(1))
        #expect(source.last?.requested == [.max(1)])
        // C13: each dropped value asks upstream for one more, whichever test dropped it.
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .max(1))
        #expect(source.send(4) == .none)
        source.send(completion: .finished)
        #expect(secondSaw == [2, 4])
        #expect(sub.events == [.subscription, .value(4), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("filter().tryFilter(), tryFilter().filter() and tryFilter().tryFilter() are one Publishers.TryFilter")
    func tryFilters() {
        let source = [1, 2, 3, 4].publisher
        let a: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            source.filter { $0 > 1 }.tryFilter {
                if $0 == 4 { throw TestError("four") }; return $0 != 3
            }
        let b: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            source.tryFilter { $0 > 1 }.filter { $0 != 3 }
        let c: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            source.tryFilter { $0 > 1 }.tryFilter { $0 != 3 }
        #expect(recordedEvents(a) == expectedEvents([2], "failure(four)"))
        #expect(recordedEvents(b) == expectedEvents([2, 4]))
        #expect(recordedEvents(c) == expectedEvents([2, 4]))
    }

    @Test("map().tryMap(), tryMap().map() and tryMap().tryMap() are one Publishers.TryMap")
    func tryMaps() {
        let source = [1, 2, 3].publisher
        let a: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> =
            source.map { $0 * 10 }.tryMap {
                if $0 == 20 { throw TestError("twenty") }; return $0 + 1
            }
        let b: Publishers.TryMap<Publishers.Sequence<[Int], Never>, String> =
            source.tryMap { $0 * 10 }.map { "\($0)" }
        let c: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> =
            source.tryMap { $0 * 10 }.tryMap { $0 + 1 }
        #expect(recordedEvents(a) == expectedEvents([11], "failure(twenty)"))
        #expect(recordedEvents(b) == expectedEvents(["10", "20", "30"]))
        #expect(recordedEvents(c) == expectedEvents([11, 21, 31]))
        let mapped: Publishers.Map<Publishers.Sequence<[Int], Never>, String> = source.map { $0 * 2 }.map { "\($0)" }
        #expect(recordedEvents(mapped) == expectedEvents(["2", "4", "6"]))
    }

    @Test("compactMap().map() is one Publishers.CompactMap; tryCompactMap().compactMap() one TryCompactMap")
    func compactMaps() {
        let source = ["1", "x", "3"].publisher
        let a: Publishers.CompactMap<Publishers.Sequence<[String], Never>, Int> =
            source.compactMap { Int($0) }.map { $0 * 2 }
        #expect(recordedEvents(a) == expectedEvents([2, 6]))
        let b: Publishers.TryCompactMap<Publishers.Sequence<[String], Never>, Int> =
            source.tryCompactMap { Int($0) }.compactMap { $0 == 3 ? nil : $0 }
        #expect(recordedEvents(b) == expectedEvents([1]))
    }

    @Test("inside generic code over any upstream the chain fuses too")
    func genericChainsFuse() {
        func twice<P: Publisher>(_ p: P) -> Publishers.Filter<P> where P.Output == Int {
            p.filter { $0 > 1 }.filter { $0 < 4 }
        }
        #expect(recordedEvents(twice([1, 2, 3, 4].publisher)) == expectedEvents([2, 3]))
    }
}
