import Reactive
import ReactiveTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something a logic's closure captures, to see when the logic is released.
private final class Token: @unchecked Sendable {
    // @unchecked: immutable and empty.
    func touch() {}
}

/// The subscriber's `request` and `cancel`, for the racing threads (they count the demand, so
/// the subscriber checks C08 against it).
private final class Handle: @unchecked Sendable {
    // @unchecked: immutable; the subscriber does its own locking.
    let request: (Subscribers.Demand) -> Void
    let cancel: () -> Void
    init<Input, Failure>(_ subscriber: TestSubscriber<Input, Failure>) {
        request = { subscriber.request($0) }
        cancel = { subscriber.cancel() }
    }
}

/// A few yields, so that a racing thread lands somewhere inside the other's stream.
private func dawdle(_ turns: Int) {
    for _ in 0..<turns { sched_yield() }
}

/// The step engine hands its logic and downstream to whichever thread owns the flow (a value in
/// flight, a completion, a held value's release) without a lock; these pin that a cancel racing
/// any of them releases both exactly once, and that demand and the grammar hold meanwhile.
@Suite("Stress: step engine ownership", .timeLimit(.minutes(1)))
struct StepEngineStressTests {
    /// Subscribes `make(source, token)` followed by a `map` whose closure captures a second
    /// token, runs `body` on four threads, then checks the grammar and that both tokens were
    /// released: the one the logic captured and the one its downstream captured, without any
    /// cancel beyond the body's own (which may lose its race to the completion). The subscriber
    /// keeps its subscription (the engine) alive, so only the engine letting go of its logic and
    /// downstream frees them (C16, C17).
    private func expectReleased<P: Publisher>(
        demand: Subscribers.Demand, sourceLocation: SourceLocation = #_sourceLocation,
        onValue: ((P.Output, TestSubscriber<P.Output, P.Failure>) -> Subscribers.Demand)? = nil,
        _ make: (PumpSource, Token) -> P,
        check: ([P.Output], Subscribers.Completion<P.Failure>?) -> Bool = { _, _ in true },
        _ body: @escaping @Sendable (Int, PumpSource, Handle) -> Void
    ) {
        let source = PumpSource()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: demand)
        let handle = Handle(subscriber)
        weak var weakLogicToken: Token?
        weak var weakDownstreamToken: Token?
        do {
            let logicToken = Token()
            let downstreamToken = Token()
            weakLogicToken = logicToken
            weakDownstreamToken = downstreamToken
            subscriber.onValue = onValue
            make(source, logicToken)
                .map { value -> P.Output in
                    downstreamToken.touch()
                    return value
                }
                .subscribe(subscriber)
        }
        let finished = runConcurrently(threads: 4) { index in body(index, source, handle) }
        #expect(finished, "watchdog: threads did not finish", sourceLocation: sourceLocation)
        // No cancel of our own here: every body ends the subscription itself (a completion, a
        // cancel, or both racing), and the engine must let go on whichever path won.
        #expect(subscriber.violations.isEmpty, sourceLocation: sourceLocation)
        #expect(check(subscriber.values, subscriber.completion), sourceLocation: sourceLocation)
        #expect(weakLogicToken == nil, "the logic was not released", sourceLocation: sourceLocation)
        #expect(weakDownstreamToken == nil, "the downstream was not released", sourceLocation: sourceLocation)
    }

    @Test("C16 C26 a cancel from another thread while values are in flight releases logic and subscriber once")
    func cancelWhileValuesFlow() {
        for round in 0..<150 {
            expectReleased(
                demand: .unlimited,
                { source, token in
                    source.tryMap { x -> Int in
                        token.touch()
                        return x
                    }.tryFilter { _ in true }
                },
                check: { values, _ in values == Array(0..<values.count) }
            ) { index, source, handle in
                switch index {
                case 0: source.pump(count: 2_000)
                case 1:
                    dawdle(round % 20)
                    handle.cancel()
                case 2: handle.cancel()
                default: for _ in 0..<50 { handle.request(.max(1)) }
                }
            }
        }
    }

    @Test("C16 C17 C28 a reducer's completion racing a cancel: one end at most, released either way")
    func completionRacingCancel() {
        for round in 0..<200 {
            expectReleased(
                demand: .unlimited,
                { source, token in
                    source.tryMap { x -> Int in
                        token.touch()
                        return x
                    }.collect().map(\.count)
                },
                check: { values, completion in
                    // The whole count then finished, or cancelled first: nothing, or the count
                    // alone when the cancel lands between the value and the completion.
                    if case .failure? = completion { return false }
                    if round % 4 == 0 { return values == [200] && completion != nil }
                    return values == [200] || (values.isEmpty && completion == nil)
                }
            ) { index, source, handle in
                switch index {
                case 0: source.pump(count: 200)
                case 1:
                    // Every fourth round the completion alone ends it: released without a cancel (C17).
                    guard round % 4 != 0 else { return }
                    dawdle(round % 10)
                    handle.cancel()
                default: break
                }
            }
        }
    }

    @Test("C20 C21 C08 re-entrant requests and a cancel from inside receive, while another thread cancels")
    func reentrantRequestAndCancel() {
        for round in 0..<100 {
            let stopAt = 3 * round + 52  // never a multiple of 3, so it passes the filter
            expectReleased(
                demand: .max(1),
                onValue: { value, subscriber in
                    if value == stopAt { subscriber.cancel() }
                    subscriber.request(.max(1))  // from inside receive: must not recurse (C20)
                    return .none
                },
                { source, token in
                    source.tryFilter { x in
                        token.touch()
                        return x % 3 != 0
                    }.tryMap { $0 }
                },
                check: { values, completion in
                    completion == nil && values == (0..<400).filter { $0 % 3 != 0 }.prefix(values.count).map { $0 }
                        && values.allSatisfy { $0 <= stopAt }
                }
            ) { index, source, handle in
                switch index {
                case 0: source.pump(count: 400)
                case 1:
                    dawdle(round % 30)
                    handle.cancel()
                default: break
                }
            }
        }
        for round in 0..<150 {
            let stopAt = round
            expectReleased(
                demand: .max(1),
                onValue: { value, subscriber in
                    if value == stopAt { subscriber.cancel() }
                    return .max(1)
                },
                { source, token in
                    source.tryMap { x -> Int in
                        token.touch()
                        return x
                    }
                },
                check: { values, completion in
                    completion == nil && values == Array(0..<values.count) && values.count <= stopAt + 1
                }
            ) { index, source, handle in
                switch index {
                case 0: source.pump(count: 400)
                case 1:
                    dawdle(round % 30)
                    handle.cancel()
                default: handle.request(.max(2))
                }
            }
        }
    }

    @Test("C26 C28 a held result released by racing requests and a cancel: at most once, released either way")
    func heldResultRace() {
        for _ in 0..<300 {
            expectReleased(
                demand: .none,
                { source, token in
                    source.reduce(0) { total, x in
                        token.touch()
                        return total + x
                    }
                },
                check: { values, completion in values.count <= 1 && values.allSatisfy { $0 == 4950 } && (completion == nil || values == [4950]) }
            ) { index, source, handle in
                switch index {
                case 0:
                    source.pump(count: 100)
                    handle.request(.max(1))
                case 1:
                    dawdle(3)
                    handle.cancel()
                default: handle.request(.max(1))
                }
            }
        }
    }

    @Test("C25 values from several threads, serialised by a subject, all reach the logic: the flow hands over")
    func ownershipMovesBetweenThreads() {
        for _ in 0..<60 {
            let subject = PassthroughSubject<Int, Never>()
            let sub = TestSubscriber<[Int], any Error>(initialDemand: .unlimited)
            subject.tryFilter { $0 >= 0 }.collect().subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                for i in 0..<250 { subject.send(index * 1_000 + i) }
            }
            #expect(finished, "watchdog: threads did not finish")
            subject.send(completion: .finished)
            #expect(sub.violations.isEmpty)
            #expect(sub.values.count == 1)
            #expect(sub.values.first?.sorted() == (0..<4).flatMap { t in (0..<250).map { t * 1_000 + $0 } })
            guard case .finished? = sub.completion else {
                Issue.record("expected .finished, got \(String(describing: sub.completion))")
                continue
            }
        }
    }
}
