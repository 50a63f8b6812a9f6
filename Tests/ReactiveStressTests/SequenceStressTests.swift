import Foundation
import Synchronization
import Testing
import Reactive
import ReactiveTestSupport

@Suite("Stress: Sequence", .timeLimit(.minutes(1)))
struct SequenceStressTests {
    @Test("C26 concurrent request and cancel from four threads never corrupt state")
    func concurrentRequestCancel() {
        for _ in 0..<200 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<1000).publisher.subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                if index == 3 {
                    sub.cancel()
                } else {
                    for _ in 0..<50 { sub.request(.max(3)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            #expect(sub.values == Array(0..<sub.values.count))
        }
    }
}

/// A `Sink` on a sequence (directly, through `map` and `filter`, or through `tryMap` and
/// `tryFilter`, whose relay reads its gate once per value) cancelled from another thread while
/// the emitter is inside the value closure: the closures must be released after that call
/// returns, never during it, and released in the end. (They pinned an attempt that let the
/// sequence release a cancelled sink's closures, kept in history; they hold for any design.)
@Suite("Stress: a sink's release after a cancel from another thread, mid-value", .timeLimit(.minutes(1)))
struct SinkCancelMidValueStressTests {
    /// Counts its own deinit, so that a closure capturing it can tell whether it was released
    /// while that closure was still running.
    final class Witness: Sendable {
        let freed: Counter
        init(_ freed: Counter) { self.freed = freed }
        deinit { freed.increment() }
    }

    /// One round's sink, shared by the emitting and the cancelling thread.
    final class Shared: @unchecked Sendable {
        // @unchecked: `sink` is set before the threads start and only read by them (the sink is
        // made for concurrent `cancel` against values); the counters lock.
        var sink: Subscribers.Sink<Int, Never>?
        var anySink: Subscribers.Sink<Int, any Error>?
        let received = Counter()
        let freed = Counter()
        let releasedDuringCall = Counter()
    }

    static func run(rounds: Int, subscribe: @escaping @Sendable (Shared) -> Void, make: (Shared) -> Void) {
        var total = 0
        for _ in 0..<rounds {
            let shared = Shared()
            make(shared)
            let finished = runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    subscribe(shared)  // emits on this thread until the cancel stops it
                } else {
                    // Until the sink is subscribed and delivering: a cancel before its subscription
                    // keeps the closures (as in Combine) until the sink is freed.
                    while shared.received.value < 3 {}
                    shared.sink?.cancel()
                    shared.anySink?.cancel()
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(shared.releasedDuringCall.value == 0, "the closures were released while a value closure ran")
            // Released once the cancel and the value it met have both returned, while the sink is
            // still referenced: not left to the sink's deinit (C16).
            #expect(shared.freed.value == 1, "a cancelled sink's closures are still referenced")
            shared.sink = nil
            shared.anySink = nil
            total += shared.received.value
        }
        #expect(total > 0)
    }

    /// The streaming `map` and `filter` (generic code gets them), in front of a sink.
    static func mapFilter<P: Publisher>(_ upstream: P) -> some Publisher<Int, Never> where P.Output == Int, P.Failure == Never {
        upstream.map { $0 &* 3 }.filter { $0 % 2 == 0 }
    }

    static func tryMapFilter<P: Publisher>(_ upstream: P) -> some Publisher<Int, any Error> where P.Output == Int, P.Failure == Never {
        upstream.tryMap { $0 &* 3 }.tryFilter { $0 % 2 == 0 }
    }

    static func valueClosure(_ shared: Shared) -> (Int) -> Void {
        let witness = Witness(shared.freed)
        let received = shared.received
        let freed = shared.freed
        let during = shared.releasedDuringCall
        return { _ in
            received.increment()
            // Long enough for the cancel to land inside; then the witness must still be alive.
            var spin = 0
            for step in 0..<200 { spin &+= step }
            if freed.value != 0 { during.increment() }
            withExtendedLifetime(witness) {}
            _ = spin
        }
    }

    @Test("C16 a sink on a sequence cancelled from another thread mid-value: released after that value, not during")
    func sequence() {
        Self.run(
            rounds: 100,
            subscribe: { shared in
                if let sink = shared.sink { (0..<Int.max).publisher.subscribe(sink) }
            }
        ) { shared in
            shared.sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: Self.valueClosure(shared))
        }
    }

    @Test("C16 the same through map and filter (the sequence's subscription reaches the sink)")
    func throughMap() {
        Self.run(
            rounds: 100,
            subscribe: { shared in
                // Through a generic function: `Publishers.Sequence`'s own `map` and `filter` are eager.
                if let sink = shared.sink { Self.mapFilter((0..<Int.max).publisher).subscribe(sink) }
            }
        ) { shared in
            shared.sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: Self.valueClosure(shared))
        }
    }

    @Test("C16 the same through tryMap and tryFilter (a gate read once per value)")
    func throughTryOperators() {
        Self.run(
            rounds: 100,
            subscribe: { shared in
                if let sink = shared.anySink { Self.tryMapFilter((0..<Int.max).publisher).subscribe(sink) }
            }
        ) { shared in
            shared.anySink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: Self.valueClosure(shared))
        }
    }

    @Test("C16 a sink on a subject cancelled from another thread at any point of a value: released by the cancel, not by the deinit")
    func subjectRace() {
        // A closure that does almost nothing, so that the cancel lands anywhere in the sink's
        // value path, the last steps included: a cancel between the value path's load of
        // `delivering` and its store of 0 was lost, and the closures stayed until the deinit.
        var late = 0
        for _ in 0..<2000 {
            let subject = PassthroughSubject<Int, Never>()
            let freed = Counter()
            // Atomics, not the locked `Counter`: a lock in the closure would leave the sink's
            // own steps a smaller part of each value.
            final class Flags: Sendable {
                let received = Atomic<Int>(0)
                let stop = Atomic<Bool>(false)
            }
            let flags = Flags()
            final class SinkBox: @unchecked Sendable {
                // @unchecked: set before the threads start, only read by them.
                var sink: Subscribers.Sink<Int, Never>?
            }
            let box = SinkBox()
            do {
                let witness = Witness(freed)
                box.sink = Subscribers.Sink(receiveCompletion: { _ in }) { _ in
                    flags.received.add(1, ordering: .relaxed)
                    withExtendedLifetime(witness) {}
                }
            }
            guard let sink = box.sink else { return }
            subject.subscribe(sink)
            let finished = runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    var sent = 0
                    while !flags.stop.load(ordering: .relaxed), sent < 100_000 {
                        subject.send(sent)
                        sent += 1
                    }
                } else {
                    var spins = 0
                    while flags.received.load(ordering: .relaxed) < 2, spins < 100_000 { spins += 1 }
                    box.sink?.cancel()
                    flags.stop.store(true, ordering: .relaxed)
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            if freed.value != 1 { late += 1 }
            box.sink = nil
            withExtendedLifetime(sink) {}
        }
        #expect(late == 0, "rounds whose cancelled sink kept its closures until its deinit")
    }

    @Test("C16 a subscriber that passes the subscription on and delivers after the sequence ended: the closures stay while one runs")
    func forwardingSubscriber() {
        // It passes the sequence's subscription to the sink, keeps the values and delivers them
        // after the sequence has finished: the sequence's emitter is long gone when the sink's
        // closure runs, so it cannot be the one to release the closures. A cancel from another
        // thread in the middle of that closure must leave them until it returns.
        final class Forwarding: Subscriber {
            let downstream: Subscribers.Sink<Int, Never>
            var kept: [Int] = []
            init(_ downstream: Subscribers.Sink<Int, Never>) { self.downstream = downstream }
            func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
            func receive(_ input: Int) -> Subscribers.Demand {
                kept.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
            func deliverKept() { for value in kept { _ = downstream.receive(value) } }
        }
        final class SinkBox: @unchecked Sendable {
            // @unchecked: set before the cancelling thread starts, which only reads it.
            var sink: Subscribers.Sink<Int, Never>?
        }
        let freed = Counter()
        let during = Counter()
        let calls = Counter()
        let box = SinkBox()
        do {
            let witness = Witness(freed)
            box.sink = Subscribers.Sink(receiveCompletion: { _ in }) { _ in
                calls.increment()
                // Cancel on another thread and wait for that cancel to return.
                let cancelled = DispatchSemaphore(value: 0)
                let canceller = Thread {
                    box.sink?.cancel()
                    cancelled.signal()
                }
                canceller.start()
                cancelled.wait()
                if freed.value != 0 { during.increment() }
                withExtendedLifetime(witness) {}
            }
        }
        guard let sink = box.sink else { return }
        let forwarding = Forwarding(sink)
        (1...3).publisher.subscribe(forwarding)
        #expect(forwarding.kept == [1, 2, 3])
        forwarding.deliverKept()
        #expect(calls.value == 1, "nothing is delivered after the cancel")
        #expect(during.value == 0, "the closures were released while the value closure ran")
        #expect(freed.value == 1, "the cancel released the closures once the value closure returned")
    }
}
