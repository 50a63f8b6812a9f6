import Reactive
import ReactiveTestSupport
import Testing

/// A publisher that records the name of every subscriber it is given, then subscribes it to
/// `inner`: what the upstream of a per-value operator sees.
private final class NamingPublisher: Publisher, @unchecked Sendable {
    // @unchecked: written only by `receive(subscriber:)` on the test's thread.
    typealias Output = Int
    typealias Failure = TestError
    let inner = ManualPublisher<Int, TestError>()
    var names: [String] = []
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        names.append("\(subscriber)")
        inner.receive(subscriber: subscriber)
    }
}

/// A misbehaving operator that hands each subscriber to its upstream twice.
private struct SubscribingTwice<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: subscriber)
        upstream.receive(subscriber: subscriber)
    }
}

/// A per-value operator in front of another (`tryMap { … }.tryFilter { … }`) fuses with its
/// subscriber: one subscriber runs both closures (`PerValueRelay.swift`). These pin that the
/// fused subscriber keeps the rules two subscribers kept, as Combine's `TryMap` and `TryFilter`
/// do (CONTRACT.md C05, C13, C15, C33). The step-fusion suite runs the same pairs apart too.
@Suite("Operators: fused per-value operators")
struct PerValueFusionTests {
    @Test("C33 a throw in the first closure: the second never sees the value, upstream is cancelled, one failure")
    func throwInFirst() {
        let source = ManualPublisher<Int, TestError>()
        var seenBySecond: [Int] = []
        let sub = recordSubscriber(
            source.tryMap { n -> Int in
                if n == 2 { throw TestError("first") }
                return n * 10
            }.tryFilter { n in
                seenBySecond.append(n)
                return true
            })
        _ = source.send(1)
        _ = source.send(2)
        _ = source.send(3)
        source.send(completion: .finished)
        #expect(seenBySecond == [10])
        #expect(sub.events.map(\.description) == expectedEvents([10], "failure(first)"))
        #expect(source.last?.cancelCount == 1)
        #expect(sub.violations == [])
    }

    @Test("C33 a throw in the second closure: upstream is cancelled, one failure, nothing after it")
    func throwInSecond() {
        let source = ManualPublisher<Int, TestError>()
        var seenByFirst: [Int] = []
        let sub = recordSubscriber(
            source.tryMap { n -> Int in
                seenByFirst.append(n)
                return n
            }.tryFilter { n in
                if n == 2 { throw TestError("second") }
                return true
            })
        _ = source.send(1)
        _ = source.send(2)
        _ = source.send(3)
        source.send(completion: .failure(TestError("late")))
        sub.request(.max(1))
        sub.cancel()
        #expect(seenByFirst == [1, 2])
        #expect(sub.events.map(\.description) == expectedEvents([1], "failure(second)"))
        #expect(source.last?.cancelCount == 1)
        #expect(source.last?.requested == [.unlimited])
        #expect(sub.violations == [])
    }

    @Test("C13 a value either closure drops asks upstream for one more; a passed one returns downstream's demand")
    func dropThenDemand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(
            source.tryCompactMap { $0 == 1 ? nil : $0 }.tryFilter { $0 % 2 == 0 },
            demand: .max(1))
        let returned = [1, 3, 4].map { source.send($0) }
        sub.request(.max(2))
        #expect(returned == [.max(1), .max(1), .none])
        #expect(sub.values == [4])
        #expect(source.last?.requested == [.max(1), .max(2)])
        #expect(sub.violations == [])
    }

    @Test("C15 a cancel from inside the first closure keeps the second from running, and nothing passes")
    func cancelInsideFirst() {
        let sub = TestSubscriber<Int, any Error>()
        var seenBySecond: [Int] = []
        (1...10).publisher.tryMap { n -> Int in
            if n == 3 { sub.cancel() }
            return n
        }.tryFilter { n in
            seenBySecond.append(n)
            return true
        }.subscribe(sub)
        #expect(seenBySecond == [1, 2])
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
    }

    @Test("C15 a cancel from inside the second closure drops the value and ends the run")
    func cancelInsideSecond() {
        let sub = TestSubscriber<Int, any Error>()
        var seenByFirst: [Int] = []
        (1...10).publisher.tryMap { n -> Int in
            seenByFirst.append(n)
            return n
        }.tryFilter { n in
            if n == 3 { sub.cancel() }
            return true
        }.subscribe(sub)
        #expect(seenByFirst == [1, 2, 3])
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
    }

    @Test("three in a row run in order and pass the completion on once")
    func threeInARow() {
        var calls: [String] = []
        let sub = recordSubscriber(
            (1...4).publisher.tryMap { n -> Int in
                calls.append("map \(n)")
                return n + 1
            }.tryFilter { n in
                calls.append("filter \(n)")
                return n != 3
            }.tryCompactMap { n -> String? in
                calls.append("compactMap \(n)")
                return n == 4 ? nil : "\(n)"
            })
        #expect(sub.events.map(\.description) == expectedEvents(["2", "5"]))
        #expect(
            calls == [
                "map 1", "filter 2", "compactMap 2", "map 2", "filter 3", "map 3", "filter 4", "compactMap 4", "map 4", "filter 5",
                "compactMap 5",
            ])
        #expect(sub.violations == [])
    }

    @Test("C06 a subscriber handed over twice fuses once; the second subscription is cancelled")
    func handedOverTwice() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(SubscribingTwice(upstream: source.tryMap { $0 * 10 }).tryFilter { _ in true })
        #expect(source.subscriptions.count == 2)
        #expect(source.subscriptions.map(\.cancelCount) == [0, 1])
        _ = source.send(1, to: 0)
        _ = source.send(2, to: 1)
        #expect(sub.values == [10])
        #expect(sub.violations == [])
    }

    @Test("the upstream sees the first operator's subscriber, the downstream the last operator's subscription")
    func names() {
        let source = NamingPublisher()
        let sub = TestSubscriber<Int, any Error>(initialDemand: .none)
        var names: [String] = []
        sub.onSubscribe = { subscription, _ in names.append("\(subscription)") }
        source.tryMap { $0 }.tryFilter { _ in true }.subscribe(sub)
        #expect(source.names == ["TryMap"])
        #expect(names == ["TryFilter"])
    }
}
