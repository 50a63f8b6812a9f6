import Reactive
import ReactiveTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source that emits from the one thread that calls `pump`, only as far as demand allows,
/// while other threads request and cancel. It keeps these tests about the operators: values are
/// produced by a trivially serial emitter, not by another concurrent subscription. (Also used by
/// `StepEngineStressTests`.)
final class PumpSource: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    typealias Output = Int
    typealias Failure = Never

    private let lock = Lock()
    private var downstream: AnySubscriber<Int, Never>?
    private var demand = Subscribers.Demand.none
    private var cancelled = false

    private final class Link: Subscription, @unchecked Sendable {
        // @unchecked: immutable; the source does its own locking.
        let source: PumpSource
        init(_ source: PumpSource) { self.source = source }
        func request(_ more: Subscribers.Demand) { source.lock.guarded { source.demand += more } }
        func cancel() {
            source.lock.guarded {
                source.cancelled = true
                source.downstream = nil
            }
        }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        lock.guarded { downstream = AnySubscriber(subscriber) }
        subscriber.receive(subscription: Link(self))
    }

    /// Sends `0..<count` as demand allows, then `.finished`; gives up after `patience` polls in a
    /// row without demand, or at once when cancelled.
    func pump(count: Int, patience: Int = 5_000) {
        var next = 0
        var idle = 0
        while next < count, idle < patience {
            let target = lock.guarded { () -> AnySubscriber<Int, Never>? in
                guard !cancelled, demand > 0, let downstream else { return nil }
                demand -= 1
                return downstream
            }
            guard let target else {
                if lock.guarded({ cancelled }) { return }
                idle += 1
                sched_yield()
                continue
            }
            idle = 0
            let more = target.receive(next)
            next += 1
            if more > 0 { lock.guarded { demand += more } }
        }
        guard next == count else { return }
        let target = lock.guarded { () -> AnySubscriber<Int, Never>? in
            defer { downstream = nil }
            return cancelled ? nil : downstream
        }
        target?.receive(completion: .finished)
    }
}

@Suite("Stress: operators", .timeLimit(.minutes(1)))
struct OperatorStressTests {
    @Test("C26 concurrent request and cancel through a stateful operator never corrupt state")
    func requestCancelThroughTryMap() {
        for _ in 0..<150 {
            let source = PumpSource()
            let sub = TestSubscriber<Int, any Error>(initialDemand: .none)
            source.tryMap { $0 }.tryFilter { _ in true }.subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: source.pump(count: 1000)
                case 3:
                    for _ in 0..<20 { sub.request(.max(3)) }
                    sub.cancel()
                default: for _ in 0..<50 { sub.request(.max(3)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            #expect(sub.values == Array(0..<sub.values.count))
        }
    }

    @Test("C14 cancel from four threads at once runs cleanup exactly once")
    func concurrentCancel() {
        for _ in 0..<200 {
            let source = ManualPublisher<Int, TestError>()
            let cancels = Counter()
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            source.handleEvents(receiveCancel: { cancels.increment() }).reduce(0, +).subscribe(sub)
            let finished = runConcurrently(threads: 4) { _ in sub.cancel() }
            #expect(finished, "watchdog: threads did not finish")
            #expect(cancels.value == 1)
            #expect(source.last?.cancelCount == 1)
            #expect(sub.events.count == 1)
        }
    }

    @Test("C26 C28 a held result released by racing requests and a cancel arrives at most once")
    func heldResultRace() {
        for _ in 0..<300 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            (1...10).publisher.reduce(0, +).subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                if index == 0 { sub.cancel() } else { sub.request(.max(1)) }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            let events = sub.events
            #expect(events == [.subscription] || events == [.subscription, .value(55)] || events == [.subscription, .value(55), .finished])
        }
    }

    @Test("C26 values flowing on one thread while others request and cancel keep the grammar")
    func flowWhileCancelling() {
        for _ in 0..<100 {
            let source = PumpSource()
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            let cancels = Counter()
            source
                .scan(0) { $1 }
                .handleEvents(receiveCancel: { cancels.increment() })
                .prefix(500)
                .subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: source.pump(count: 600)
                case 1: for _ in 0..<100 { sub.request(.max(5)) }
                case 2: for _ in 0..<100 { sub.request(.max(1)) }
                default:
                    for _ in 0..<30 { sub.request(.max(2)) }
                    sub.cancel()
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            #expect(sub.values == Array(0..<sub.values.count))
            #expect(sub.values.count <= 500)
            #expect(cancels.value <= 1)
        }
    }
}
