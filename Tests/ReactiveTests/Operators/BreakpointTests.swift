import Reactive
import ReactiveTestSupport
import Testing

private struct Boom: Error, Equatable {}

// Only the paths that do not stop are tested: a `true` raises SIGTRAP, which would end the run.
@Suite("breakpoint")
struct BreakpointTests {
    @Test("closures returning false see every event; values and completion pass through")
    func passesThrough() {
        let log = TimeTestLog()
        let sub = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher
            .breakpoint(
                receiveSubscription: { _ in
                    log.append("subscription"); return false
                },
                receiveOutput: {
                    log.append("\($0)"); return false
                },
                receiveCompletion: { _ in
                    log.append("completion"); return false
                }
            )
            .subscribe(sub)
        #expect(log.all == ["subscription", "1", "2", "3", "completion"])
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("with no closures it is transparent")
    func noClosures() {
        let sub = TestSubscriber<Int, Never>()
        [4, 5].publisher.breakpoint().subscribe(sub)
        #expect(sub.values == [4, 5])
        #expect(sub.completion == .finished)
    }

    @Test("C08 C09 demand passes through exactly")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.breakpoint(receiveOutput: { _ in false }).subscribe(sub)
        #expect(sub.values == [1, 2])
        sub.request(.max(3))
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }

    @Test("C05 C21 cancel reaches upstream, and nothing arrives after it")
    func cancel() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.breakpoint(receiveOutput: { _ in false }).subscribe(sub)
        _ = upstream.send(1)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        _ = upstream.send(2)
        #expect(sub.values == [1])
    }

    @Test("breakpointOnError passes a finished stream through without stopping")
    func onErrorFinished() {
        let sub = TestSubscriber<Int, Boom>()
        [1, 2].publisher.setFailureType(to: Boom.self).breakpointOnError().subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])
    }
}
