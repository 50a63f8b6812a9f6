import Foundation
import Reactive
import ReactiveTestSupport
import Testing

/// A demand-respecting source for one subscriber, driven by one thread: `offer` sends a value only
/// when the subscriber has asked for it, so the operator under test — not the source — is what
/// the demand and overlap checks judge.
final class DemandSource: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    typealias Output = Int
    typealias Failure = TestError

    enum Offer { case sent, noDemand, closed }

    private let lock = Lock()
    private var subscriber: AnySubscriber<Int, TestError>?
    private var demand = Subscribers.Demand.none
    private var subscribed = false
    private var cancelled = false
    /// Counts sources between subscription and completion, shared by a test.
    private let live: LiveCounter?

    init(live: LiveCounter? = nil) { self.live = live }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        lock.guarded {
            self.subscriber = AnySubscriber(subscriber)
            subscribed = true
        }
        live?.enter()
        subscriber.receive(subscription: Link(source: self))
    }

    var isSubscribed: Bool { lock.guarded { subscribed } }
    var isCancelled: Bool { lock.guarded { cancelled } }

    /// Sends `value` if there is demand.
    func offer(_ value: Int) -> Offer {
        let target = lock.guarded { () -> AnySubscriber<Int, TestError>?? in
            guard let subscriber, !cancelled else { return .some(nil) }
            guard demand > 0 else { return nil }
            demand -= 1
            return subscriber
        }
        guard let target else { return .noDemand }
        guard let target else { return .closed }
        let more = target.receive(value)
        if more > 0 { lock.guarded { demand += more } }
        return .sent
    }

    func finish(_ completion: Subscribers.Completion<TestError> = .finished) {
        let target = lock.guarded { () -> AnySubscriber<Int, TestError>? in
            let target = cancelled ? nil : subscriber
            subscriber = nil
            return target
        }
        live?.leave()
        target?.receive(completion: completion)
    }

    /// Waits (bounded) until subscribed, then offers every value in order (waiting for demand),
    /// then finishes. Returns false if the deadline passed.
    func drive(_ values: Range<Int>, deadline: Date, completion: Subscribers.Completion<TestError> = .finished) -> Bool {
        while !isSubscribed {
            if Date() > deadline { return false }
            sched_yield()
        }
        var next = values.lowerBound
        while next < values.upperBound {
            switch offer(next) {
            case .sent: next += 1
            case .closed: return true
            case .noDemand:
                if Date() > deadline { return false }
                sched_yield()
            }
        }
        finish(completion)
        return true
    }

    private final class Link: Subscription, @unchecked Sendable {
        // @unchecked: only forwards to the source, which locks.
        let source: DemandSource
        init(source: DemandSource) { self.source = source }
        func request(_ demand: Subscribers.Demand) { source.lock.guarded { source.demand += demand } }
        func cancel() {
            source.lock.guarded {
                source.cancelled = true
                source.subscriber = nil
            }
        }
    }
}

/// Tracks how many sources are live at once, and the most ever seen.
final class LiveCounter: Sendable {
    private let state = Lock<(now: Int, most: Int)>((0, 0))
    func enter() {
        state.withLock {
            $0.now += 1; $0.most = max($0.most, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
    var most: Int { state.withLock { $0.most } }
}

/// Three values for `n`, as a sequence publisher: an inner whose elements `flatMap` takes directly.
private func threeFrom(_ n: Int) -> Publishers.Sequence<[Int], TestError> {
    Publishers.Sequence(sequence: [n * 3, n * 3 + 1, n * 3 + 2])
}

/// Values of each `threeFrom` inner must arrive in order (inner = value / 3).
private func inOrderPerInner(_ values: [Int]) -> Bool {
    var last: [Int: Int] = [:]
    for value in values {
        if let previous = last[value / 3], previous >= value { return false }
        last[value / 3] = value
    }
    return true
}

/// Values per source must arrive in order (value = source * 1_000_000 + index).
private func inOrderPerSource(_ values: [Int]) -> Bool {
    var last: [Int: Int] = [:]
    for value in values {
        let source = value / 1_000_000
        if let previous = last[source], previous >= value { return false }
        last[source] = value
    }
    return true
}

@Suite("Stress: combining", .timeLimit(.minutes(1)))
struct CombiningStressTests {
    @Test("C35 C25 merge of four sources sending from four threads: serialised, every value, in order per source")
    func mergeFromFourThreads() {
        for round in 0..<20 {
            let sources = (0..<4).map { _ in DemandSource() }
            let sub = TestSubscriber<Int, TestError>(initialDemand: round.isMultiple(of: 2) ? .unlimited : .max(8))
            if !round.isMultiple(of: 2) { sub.onValue = { _, _ in .max(1) } }
            sources[0].merge(with: sources[1], sources[2], sources[3]).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                _ = sources[index].drive(index * 1_000_000..<index * 1_000_000 + 500, deadline: deadline)
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.values.count == 2000)
            #expect(inOrderPerSource(sub.values))
            #expect(sub.completion == .finished)
        }
    }

    @Test("C08 merge with demand requested from four threads never over-delivers")
    func mergeDemandFromFourThreads() {
        for _ in 0..<50 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            let inputs = (0..<4).map { source in (0..<1000).map { source * 1_000_000 + $0 }.publisher }
            Publishers.MergeMany(inputs).subscribe(sub)
            let finished = runConcurrently(threads: 4) { _ in
                for _ in 0..<100 { sub.request(.max(2)) }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.values.count == 800)
            #expect(inOrderPerSource(sub.values))
        }
    }

    @Test("C35 C28 a failure racing values from other threads: one completion, nothing after, the rest cancelled")
    func mergeFailureRace() {
        for _ in 0..<50 {
            let sources = (0..<4).map { _ in DemandSource() }
            let sub = TestSubscriber<Int, TestError>()
            sources[0].merge(with: sources[1], sources[2], sources[3]).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                if index == 3 {
                    _ = sources[3].drive(3_000_000..<3_000_050, deadline: deadline, completion: .failure(TestError()))
                } else {
                    _ = sources[index].drive(index * 1_000_000..<index * 1_000_000 + 400, deadline: deadline)
                }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.completion == .failure(TestError()))
            if case .failure = sub.events.last {} else { Issue.record("the failure is not the last event") }
        }
    }

    @Test("C34 flatMap(maxPublishers: 2) with inners driven from four threads: at most 2 live, every value")
    func flatMapMaxPublishers() {
        for _ in 0..<10 {
            let live = LiveCounter()
            let sources = (0..<8).map { _ in DemandSource(live: live) }
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(4))
            sub.onValue = { _, _ in .max(1) }
            (0..<8).publisher.setFailureType(to: TestError.self)
                .flatMap(maxPublishers: .max(2)) { sources[$0] }
                .subscribe(sub)
            let deadline = Date() + 10
            let finished = runConcurrently(threads: 4, timeout: 15) { index in
                for source in [index, index + 4] {
                    _ = sources[source].drive(source * 1_000_000..<source * 1_000_000 + 200, deadline: deadline)
                }
            }
            #expect(finished, "watchdog")
            #expect(live.most <= 2)
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.values.count == 1600)
            #expect(inOrderPerSource(sub.values))
            #expect(sub.completion == .finished)
        }
    }

    @Test("C25 C08 flatMap with inners sending from four threads under limited demand")
    func flatMapFourThreads() {
        for round in 0..<20 {
            let sources = (0..<4).map { _ in DemandSource() }
            let unlimited = round.isMultiple(of: 2)
            let sub = TestSubscriber<Int, TestError>(initialDemand: unlimited ? .unlimited : .max(3))
            if !unlimited { sub.onValue = { _, _ in .max(1) } }
            (0..<4).publisher.setFailureType(to: TestError.self).flatMap { sources[$0] }.subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                _ = sources[index].drive(index * 1_000_000..<index * 1_000_000 + 500, deadline: deadline)
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.values.count == 2000)
            #expect(inOrderPerSource(sub.values))
            #expect(sub.completion == .finished)
        }
    }

    @Test("C26 C18 cancel racing deliveries and requests: nothing after cancel on the cancelling thread, every source cancelled")
    func cancelRace() {
        for _ in 0..<50 {
            let sources = (0..<3).map { _ in DemandSource() }
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            sources[0].merge(with: sources[1], sources[2]).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                if index == 3 {
                    for _ in 0..<50 { sub.request(.max(1)) }
                    sub.cancel()
                } else {
                    _ = sources[index].drive(index * 1_000_000..<index * 1_000_000 + 10_000, deadline: deadline)
                }
            }
            #expect(finished, "watchdog")
            // Among the violations: C15, a delivery on the cancelling thread after its cancel.
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.completion == nil)
            #expect(sources.allSatisfy { $0.isCancelled })
            // On the three sending threads, at most the delivery each had under way.
            #expect(sub.eventsAfterCancel.count <= 3, "\(sub.eventsAfterCancel)")
        }
    }

    @Test(
        "C16 C26 zip, combineLatest and merge: cancel racing deliveries from two threads releases the downstream once, never under a delivery",
        arguments: ["zip", "combineLatest", "merge"])
    func combinerCancelRace(_ name: String) {
        for _ in 0..<50 {
            let a = DemandSource()
            let b = DemandSource()
            weak var weakSub: TestSubscriber<Int, TestError>?
            var finished = false
            do {
                let sub = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
                weakSub = sub
                let combined: AnyPublisher<Int, TestError>
                switch name {
                case "zip": combined = a.zip(b) { $0 + $1 }.eraseToAnyPublisher()
                case "combineLatest": combined = a.combineLatest(b) { $0 + $1 }.eraseToAnyPublisher()
                default: combined = a.merge(with: b).eraseToAnyPublisher()
                }
                combined.subscribe(sub)
                let deadline = Date() + 5
                // Sources far longer than the race, so the cancel (not a finish) ends it; the
                // cancelling thread holds the subscriber weakly (a thread's closure can outlive
                // the join by a moment).
                finished = runConcurrently(threads: 3) { [weak sub] index in
                    switch index {
                    case 0: _ = a.drive(0..<10_000_000, deadline: deadline)
                    case 1: _ = b.drive(0..<10_000_000, deadline: deadline)
                    default:
                        while (sub?.valueCount ?? 100) < 100, Date() < deadline {}
                        sub?.cancel()
                    }
                }
                #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
                #expect(sub.completion == nil)
                // On the two sending threads, at most the delivery each had under way.
                #expect(sub.eventsAfterCancel.count <= 2, "\(sub.eventsAfterCancel)")
            }
            #expect(finished, "watchdog")
            // Whichever thread was delivering when the cancel came has let go of it by now.
            #expect(weakSub == nil, "the downstream is released after the cancel")
            #expect(a.isCancelled && b.isCancelled)
        }
    }

    @Test("C36 zip of two sources driven from two threads while two threads request")
    func zipConcurrent() {
        for _ in 0..<20 {
            let a = DemandSource()
            let b = DemandSource()
            let sub = TestSubscriber<(Int, Int), TestError>(initialDemand: .none)
            a.zip(b).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: _ = a.drive(0..<300, deadline: deadline)
                case 1: _ = b.drive(0..<300, deadline: deadline)
                default: for _ in 0..<150 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.values.map { $0.0 } == Array(0..<300))
            #expect(sub.values.allSatisfy { $0.0 == $0.1 })
            #expect(sub.completion == .finished)
        }
    }

    @Test("C25 C08 flatMap over sequence inners while three threads request one at a time: serialised, every value once, in order per inner")
    func flatMapSequenceInnersConcurrentDemand() {
        for _ in 0..<20 {
            let outer = DemandSource()
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            outer.flatMap(threeFrom).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                if index == 0 {
                    _ = outer.drive(0..<1_000, deadline: deadline)
                } else {
                    for _ in 0..<1_000 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            // Under limited demand each live inner has a value queued, so inners interleave (as
            // when subscribed); each inner's own values stay in order.
            #expect(sub.values.sorted() == Array(0..<3_000))
            #expect(inOrderPerInner(sub.values))
            #expect(sub.completion == .finished)
        }
    }

    @Test("C26 C15 flatMap over sequence inners: a cancel racing the outer and requests, nothing after it on its thread")
    func flatMapSequenceInnersCancelRace() {
        for _ in 0..<50 {
            let outer = DemandSource()
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            outer.flatMap(threeFrom).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: _ = outer.drive(0..<1_000, deadline: deadline)
                case 3:
                    for _ in 0..<50 { sub.request(.max(1)) }
                    sub.cancel()
                default:
                    for _ in 0..<500 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            #expect(sub.completion == nil)
            // On the other three threads, at most the delivery each had under way (a requester
            // delivers queued values).
            #expect(sub.eventsAfterCancel.count <= 3, "\(sub.eventsAfterCancel)")
        }
    }
}
