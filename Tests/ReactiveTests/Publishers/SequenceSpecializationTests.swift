import Reactive
import ReactiveTestSupport
import Testing

/// Combine's operator specialisations on `Publishers.Sequence`. Each return type below is the one
/// Apple's Combine reference declares (Publishers.Sequence, "Publisher Operators"): the `let`
/// with an explicit type is the compile-time check, the events are the values.
@Suite("Publishers: Publishers.Sequence's specialised operators (Combine)")
struct SequenceSpecializationTests {
    @Test("map runs its transform for every element when map is applied, once")
    func mapIsEager() {
        var calls: [Int] = []
        let mapped: Publishers.Sequence<[String], Never> = [1, 2, 3].publisher.map {
            calls.append($0); return "\($0 * 10)"
        }
        #expect(calls == [1, 2, 3], "the transform ran before anything subscribed")
        #expect(mapped.sequence == ["10", "20", "30"])
        #expect(recordedEvents(mapped) == expectedEvents(["10", "20", "30"]))
        #expect(recordedEvents(mapped) == expectedEvents(["10", "20", "30"]))
        #expect(calls == [1, 2, 3], "subscribing twice does not run it again")
    }

    @Test("filter, compactMap, scan, removeDuplicates and replaceNil are sequences of arrays, computed at once")
    func arraySequences() {
        var seen = 0
        let evens: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter {
            seen += 1; return $0 % 2 == 0
        }
        #expect(seen == 6)
        #expect(evens.sequence == [2, 4, 6])
        let parsed: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        #expect(parsed.sequence == [1, 3])
        let sums: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)
        #expect(sums.sequence == [1, 3, 6])
        #expect(recordedEvents(sums) == expectedEvents([1, 3, 6]))
        let distinct: Publishers.Sequence<[Int], Never> = [1, 1, 2, 2, 1].publisher.removeDuplicates()
        #expect(distinct.sequence == [1, 2, 1])
        // Combine declares replaceNil's elements as the sequence's own (optional) element type.
        let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
        #expect(replaced.sequence == [1, 0, 3])
        let leading: Publishers.Sequence<[Int], Never> = [1, 2, 5, 1].publisher.prefix { $0 < 3 }
        #expect(leading.sequence == [1, 2])
    }

    @Test("dropFirst, prefix and drop(while:) wrap the sequence, so an endless one still works")
    func wrappingSequences() {
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
        #expect(recordedEvents(dropped) == expectedEvents([2, 3]))
        #expect(recordedEvents([1, 2, 3].publisher.dropFirst(5)) == expectedEvents([]))
        #expect(recordedEvents([1, 2].publisher.dropFirst(-1)) == expectedEvents([1, 2]), "a negative count drops nothing (C07)")
        let firstThree: Publishers.Sequence<PrefixSequence<PartialRangeFrom<Int>>, Never> = (1...).publisher.prefix(3)
        #expect(recordedEvents(firstThree) == expectedEvents([1, 2, 3]))
        #expect(recordedEvents([1, 2].publisher.prefix(-1)) == expectedEvents([]), "a negative length keeps nothing (C07)")
        let rest: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = [1, 2, 5, 1].publisher.drop { $0 < 3 }
        #expect(recordedEvents(rest) == expectedEvents([5, 1]))
    }

    @Test("count of a random-access collection is a Just, computed in constant time")
    func countIsJust() {
        let million: Just<Int> = (1...1_000_000_000_000).publisher.count()
        #expect(million.output == 1_000_000_000_000)
        let failing: Result<Int, TestError>.Publisher = [1, 2].publisher.setFailureType(to: TestError.self).count()
        #expect(recordedEvents(failing) == expectedEvents([2]))
        // A collection that is not random-access: Result.Publisher, as for a failing sequence.
        let set: Result<Int, Never>.Publisher = Set([1, 2, 3]).publisher.count()
        #expect(recordedEvents(set) == expectedEvents([3]))
    }

    @Test("the answers of allSatisfy, contains, collect and reduce are Result publishers")
    func resultPublishers() {
        let all: Result<Bool, Never>.Publisher = [2, 4].publisher.allSatisfy { $0 % 2 == 0 }
        let some: Result<Bool, Never>.Publisher = [2, 4].publisher.contains { $0 > 3 }
        let has: Result<Bool, Never>.Publisher = [2, 4].publisher.contains(5)
        let collected: Result<[Int], Never>.Publisher = (1...3).publisher.collect()
        let total: Result<Int, Never>.Publisher = (1...4).publisher.reduce(0, +)
        #expect(recordedEvents(all) == expectedEvents([true]))
        #expect(recordedEvents(some) == expectedEvents([true]))
        #expect(recordedEvents(has) == expectedEvents([false]))
        #expect(recordedEvents(collected) == expectedEvents([[1, 2, 3]]))
        #expect(recordedEvents(total) == expectedEvents([10]))
        let empty: Result<[Int], Never>.Publisher = [Int]().publisher.collect()
        #expect(recordedEvents(empty) == expectedEvents([[Int]()]), "an empty sequence collects to []")
    }

    @Test("throwing closures give Result publishers of any Error")
    func throwingResults() {
        let thrown: Result<Int, any Error>.Publisher = [1, 2, 3].publisher.tryReduce(0) { sum, x in
            if x == 2 { throw TestError("two") }
            return sum + x
        }
        #expect(recordedEvents(thrown) == expectedEvents([], "failure(two)"))
        let all: Result<Bool, any Error>.Publisher = [1, 2].publisher.tryAllSatisfy { $0 > 0 }
        #expect(recordedEvents(all) == expectedEvents([true]))
        let some: Result<Bool, any Error>.Publisher = [1, 2].publisher.tryContains { _ in throw TestError("no") }
        #expect(recordedEvents(some) == expectedEvents([], "failure(no)"))
    }

    @Test("first, last, min, max and output(at:) are Optional publishers when the sequence cannot fail")
    func optionalPublishers() {
        let numbers = [3, 1, 4, 1, 5]
        let first: Optional<Int>.Publisher = numbers.publisher.first()
        let last: Optional<Int>.Publisher = numbers.publisher.last()
        let firstBig: Optional<Int>.Publisher = numbers.publisher.first { $0 > 3 }
        let lastSmall: Optional<Int>.Publisher = numbers.publisher.last { $0 < 2 }
        let least: Optional<Int>.Publisher = numbers.publisher.min()
        let greatest: Optional<Int>.Publisher = numbers.publisher.max()
        let leastBy: Optional<Int>.Publisher = numbers.publisher.min { $0 > $1 }
        let greatestBy: Optional<Int>.Publisher = numbers.publisher.max { $0 > $1 }
        let third: Optional<Int>.Publisher = numbers.publisher.output(at: 2)
        #expect([first, last, firstBig, lastSmall, least, greatest, leastBy, greatestBy, third].map(\.output) == [3, 5, 4, 1, 1, 5, 5, 1, 4])
        #expect(numbers.publisher.output(at: 9).output == nil, "an index outside publishes nothing")
        #expect(numbers.publisher.output(at: -1).output == nil)
        #expect(recordedEvents([Int]().publisher.first()) == expectedEvents([]))
        #expect(recordedEvents([Int]().publisher.max()) == expectedEvents([]))
    }

    @Test("output(in:) takes a Range of the collection's indices and keeps the part inside it")
    func outputIn() {
        let middle: Publishers.Sequence<[Int], Never> = [10, 20, 30, 40].publisher.output(in: 1..<3)
        #expect(middle.sequence == [20, 30])
        #expect([10, 20].publisher.output(in: 1..<9).sequence == [20])
        #expect([10, 20].publisher.output(in: 5..<9).sequence == [])
    }

    @Test("append, prepend, setFailureType and ignoreOutput keep a sequence (or an Empty)")
    func sameSequence() {
        let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
        #expect(appended.sequence == [1, 2, 3, 4])
        #expect([1].publisher.append([2, 3]).sequence == [1, 2, 3])
        #expect([1].publisher.append([2].publisher).sequence == [1, 2])
        let prepended: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(1, 2)
        #expect(prepended.sequence == [1, 2, 3])
        #expect([3].publisher.prepend([1, 2]).sequence == [1, 2, 3])
        #expect([3].publisher.prepend([2].publisher).sequence == [2, 3])
        let failing: Publishers.Sequence<[Int], TestError> = [1].publisher.setFailureType(to: TestError.self)
        #expect(recordedEvents(failing) == expectedEvents([1]))
        let nothing: Empty<Int, Never> = [1, 2].publisher.ignoreOutput()
        #expect(recordedEvents(nothing) == expectedEvents([]))
    }

    @Test("generic code over some Publisher still streams one value per demand")
    func genericStillStreams() {
        func doubled<P: Publisher>(_ upstream: P) -> Publishers.Map<P, Int> where P.Output == Int {
            upstream.map { $0 * 2 }
        }
        var produced = 0
        let lazy = doubled(
            (1...).lazy.map { n -> Int in
                produced += 1; return n
            }.publisher)
        #expect(recordedEvents(lazy, demand: .max(2)) == expectedEvents([2, 4], nil))
        #expect(produced <= 3, "an endless sequence behind the generic map is read on demand")
    }
}
