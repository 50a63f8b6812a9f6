import Reactive
import ReactiveTestSupport
import Testing

/// Combine's operator specialisations on `Just`, `Optional.Publisher` and `Result.Publisher`:
/// the type a user sees and what it publishes.
@Suite("Publishers: Just's specialised operators (Combine)")
struct JustSpecializationTests {
    @Test("Just.map is a Just, and the transform runs when map is applied")
    func mapIsJust() {
        var calls = 0
        let mapped: Just<String> = Just(21).map {
            calls += 1; return "\($0 * 2)"
        }
        #expect(calls == 1)
        #expect(mapped == Just("42"))
        #expect(recordedEvents(mapped) == expectedEvents(["42"]))
        #expect(calls == 1, "subscribing does not run it again")
    }

    @Test("filter, first(where:), dropFirst, prefix, output(at:) and compactMap are Optional publishers")
    func optionalResults() {
        let kept: Optional<Int>.Publisher = Just(3).filter { $0 > 2 }
        let dropped: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }
        #expect(recordedEvents(kept) == expectedEvents([3]))
        #expect(recordedEvents(dropped) == expectedEvents([]))
        #expect(Just(3).first { $0 == 3 }.output == 3)
        #expect(Just(3).last { $0 == 4 }.output == nil)
        #expect(Just(3).drop { $0 == 3 }.output == nil)
        #expect(Just(3).prefix { $0 == 3 }.output == 3)
        #expect(Just(3).dropFirst().output == nil)
        #expect(Just(3).dropFirst(0).output == 3)
        #expect(Just(3).prefix(1).output == 3)
        #expect(Just(3).prefix(0).output == nil)
        #expect(Just(3).output(at: 0).output == 3)
        #expect(Just(3).output(at: 1).output == nil)
        #expect(Just(3).output(in: 0..<2).output == 3)
        #expect(Just(3).output(in: 1...).output == nil)
        let parsed: Optional<Int>.Publisher = Just("12").compactMap { Int($0) }
        #expect(parsed.output == 12)
    }

    @Test("the one-value operators stay Just")
    func staysJust() {
        let j = Just(5)
        let same: [Just<Int>] = [
            j.first(), j.last(), j.min(), j.max(), j.min(by: <), j.max(by: <), j.removeDuplicates(),
            j.removeDuplicates(by: ==), j.replaceError(with: 0), j.replaceEmpty(with: 0), j.retry(3),
        ]
        #expect(same.allSatisfy { $0 == j })
        let count: Just<Int> = j.count()
        let collected: Just<[Int]> = j.collect()
        let contains: Just<Bool> = j.contains(5)
        let containsWhere: Just<Bool> = j.contains { $0 > 9 }
        let all: Just<Bool> = j.allSatisfy { $0 > 1 }
        #expect(count.output == 1 && collected.output == [5] && contains.output && !containsWhere.output && all.output)
    }

    @Test("throwing closures, a new failure type and accumulations are Result publishers")
    func resultResults() {
        let thrown: Result<Int, any Error>.Publisher = Just(1).tryMap { _ in throw TestError("no") }
        #expect(recordedEvents(thrown) == expectedEvents([], "failure(no)"))
        let fine: Result<Int, any Error>.Publisher = Just(1).tryMap { $0 + 1 }
        #expect(recordedEvents(fine) == expectedEvents([2]))
        let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
        #expect(typed == Result<Int, TestError>.Publisher(1))
        let mapped: Result<Int, TestError>.Publisher = Just(1).mapError { (never: Never) -> TestError in }
        #expect(mapped == typed)
        let sum: Result<Int, Never>.Publisher = Just(4).reduce(10, +)
        let step: Result<Int, Never>.Publisher = Just(4).scan(10, +)
        #expect(sum.result == .success(14) && step.result == .success(14))
        let bad: Result<Int, any Error>.Publisher = Just(4).tryReduce(0) { _, _ in throw TestError("r") }
        #expect(recordedEvents(bad) == expectedEvents([], "failure(r)"))
        #expect(recordedEvents(Just(4).tryScan(1, +)) == expectedEvents([5]))
        #expect(recordedEvents(Just(4).tryAllSatisfy { $0 > 1 }) == expectedEvents([true]))
        #expect(recordedEvents(Just(4).tryContains { $0 > 9 }) == expectedEvents([false]))
        #expect(recordedEvents(Just(4).tryRemoveDuplicates(by: ==)) == expectedEvents([4]))
        #expect(recordedEvents(Just(4).tryRemoveDuplicates { _, _ in throw TestError("d") }) == expectedEvents([], "failure(d)"))
    }

    @Test("append and prepend of elements are one sequence publisher; ignoreOutput is Empty")
    func sequencesAndEmpty() {
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
        let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend([1, 2])
        #expect(appended.sequence == [1, 2, 3] && prepended.sequence == [1, 2, 3])
        let nothing: Empty<Int, Never> = Just(1).ignoreOutput()
        #expect(recordedEvents(nothing) == expectedEvents([]))
        let concatenated = Just(1).append(Just(2))
        #expect(recordedEvents(concatenated) == expectedEvents([1, 2]), "a publisher argument is still concatenated")
    }

    @Test("generic code over any publisher keeps the generic, lazy operator")
    func genericCodeIsLazy() {
        var calls = 0
        func doubled<P: Publisher>(_ upstream: P) -> Publishers.Map<P, Int> where P.Output == Int {
            upstream.map {
                calls += 1; return $0 * 2
            }
        }
        let lazy = doubled(Just(4))
        #expect(calls == 0)
        #expect(recordedEvents(lazy) == expectedEvents([8]))
        #expect(calls == 1)
    }

    @Test("a key path still maps a Just")
    func keyPath() {
        #expect(recordedEvents(Just("abc").map(\.count)) == expectedEvents([3]))
    }

    @Test("flatMap over Just inners still fuses them (C34 C08)")
    func flatMapOfSpecialisedJust() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...3).publisher.flatMap { Just($0).map { $0 * 10 } }.subscribe(sub)
        #expect(sub.values == [10, 20])
        sub.request(.unlimited)
        #expect(sub.events == [.subscription, .value(10), .value(20), .value(30), .finished])
        #expect(sub.violations.isEmpty)
    }
}

@Suite("Publishers: Optional.Publisher's specialised operators (Combine)")
struct OptionalSpecializationTests {
    @Test("map, filter and compactMap are Optional publishers; nil stays nil")
    func mapFilter() {
        let some: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
        let none: Optional<String>.Publisher = Optional<Int>.none.publisher.map { "\($0)" }
        #expect(recordedEvents(some) == expectedEvents(["2"]))
        #expect(recordedEvents(none) == expectedEvents([]))
        #expect(Optional(2).publisher.filter { $0 > 2 }.output == nil)
        #expect(Optional("x").publisher.compactMap { Int($0) }.output == nil)
    }

    @Test("count, allSatisfy, contains and reduce of nil publish nothing, as Combine's specialisations do")
    func emptyStaysEmpty() {
        let none = Optional<Int>.none.publisher
        let count: Optional<Int>.Publisher = none.count()
        #expect(recordedEvents(count) == expectedEvents([]))
        #expect(none.allSatisfy { $0 > 0 }.output == nil)
        #expect(none.contains(1).output == nil)
        #expect(none.reduce(0, +).output == nil)
        #expect(Optional(3).publisher.count().output == 1)
        #expect(Optional(3).publisher.reduce(1, +).output == 4)
        #expect(Optional(3).publisher.scan(1, +).output == 4)
        #expect(Optional(3).publisher.collect().output == [3])
        #expect(Optional(3).publisher.contains { $0 == 3 }.output == true)
    }

    @Test("replaceEmpty is a Just; ignoreOutput is Empty; the one-value operators return the publisher")
    func otherTypes() {
        let filled: Just<Int> = Optional<Int>.none.publisher.replaceEmpty(with: 7)
        #expect(filled == Just(7))
        #expect(Optional(1).publisher.replaceEmpty(with: 7) == Just(1))
        let nothing: Empty<Int, Never> = Optional(1).publisher.ignoreOutput()
        #expect(recordedEvents(nothing) == expectedEvents([]))
        let p = Optional(4).publisher
        let same: [Optional<Int>.Publisher] = [
            p.first(), p.last(), p.min(), p.max(), p.removeDuplicates(), p.retry(2), p.replaceError(with: 0),
            p.dropFirst(0), p.prefix(1), p.output(at: 0), p.first { $0 == 4 },
        ]
        #expect(same.allSatisfy { $0 == p })
        #expect(p.dropFirst().output == nil && p.drop { $0 == 4 }.output == nil && p.output(in: 1..<3).output == nil)
    }
}

@Suite("Publishers: Result.Publisher's specialised operators (Combine)")
struct ResultSpecializationTests {
    typealias R = Result<Int, TestError>

    @Test("map, count, contains and reduce act on a success; a failure passes through")
    func successAndFailure() {
        let ok: Result<String, TestError>.Publisher = R.success(2).publisher.map { "\($0)" }
        let failed: Result<String, TestError>.Publisher = R.failure(TestError()).publisher.map { "\($0)" }
        #expect(recordedEvents(ok) == expectedEvents(["2"]))
        #expect(recordedEvents(failed) == expectedEvents([], "failure(boom)"))
        #expect(R.success(2).publisher.count().result == .success(1))
        #expect(R.failure(TestError()).publisher.count().result == .failure(TestError()))
        #expect(R.success(2).publisher.contains(2).result == .success(true))
        #expect(R.success(2).publisher.reduce(1, +).result == .success(3))
        #expect(R.success(2).publisher.scan(1, +).result == .success(3))
        #expect(R.success(2).publisher.collect().result == .success([2]))
        #expect(R.success(2).publisher.allSatisfy { $0 > 5 }.result == .success(false))
    }

    @Test("try operators give any Error: the failure or the thrown error")
    func tryOperators() {
        let thrown: Result<Int, any Error>.Publisher = R.success(1).publisher.tryMap { _ in throw TestError("t") }
        #expect(recordedEvents(thrown) == expectedEvents([], "failure(t)"))
        let kept: Result<Int, any Error>.Publisher = R.failure(TestError("f")).publisher.tryMap { $0 }
        #expect(recordedEvents(kept) == expectedEvents([], "failure(f)"))
        #expect(recordedEvents(R.success(1).publisher.tryReduce(1, +)) == expectedEvents([2]))
        #expect(recordedEvents(R.success(1).publisher.tryMin { _, _ in throw TestError("m") }) == expectedEvents([], "failure(m)"))
    }

    @Test("mapError, replaceError and setFailureType change the failure type")
    func failureTypes() {
        let mapped: Result<Int, TestError>.Publisher =
            Result<Int, TestError>.failure(TestError("a")).publisher.mapError { TestError($0.message + "!") }
        #expect(mapped.result == .failure(TestError("a!")))
        let replaced: Result<Int, Never>.Publisher = R.failure(TestError()).publisher.replaceError(with: 9)
        #expect(replaced.result == .success(9))
        let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.success(3).publisher.setFailureType(to: TestError.self)
        #expect(typed.result == .success(3))
        let p = R.success(4).publisher
        let same: [R.Publisher] = [p.first(), p.last(), p.min(), p.max(), p.removeDuplicates(), p.retry(1), p.replaceEmpty(with: 0)]
        #expect(same.allSatisfy { $0 == p })
    }

    @Test("C04 ignoreOutput keeps a failure (not Combine's Empty, which would drop it)")
    func ignoreOutputKeepsFailure() {
        let ignored: Publishers.IgnoreOutput<R.Publisher> = R.failure(TestError()).publisher.ignoreOutput()
        #expect(recordedEvents(ignored) == expectedEvents([], "failure(boom)"))
    }
}
