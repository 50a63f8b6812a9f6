import Reactive
import ReactiveTestSupport
import Testing

/// A thread-safe list of what the hooks saw.
private final class HookLog: Sendable {
    private let entries = Lock<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private func logged<P: Publisher>(_ publisher: P, _ log: HookLog) -> Publishers.HandleEvents<P> {
    publisher.handleEvents(
        receiveSubscription: { _ in log.add("subscription") },
        receiveOutput: { log.add("output \($0)") },
        receiveCompletion: { log.add($0.isFinished ? "finished" : "failure") },
        receiveCancel: { log.add("cancel") },
        receiveRequest: { log.add("request \($0)") })
}

@Suite("Operators: handleEvents")
struct HandleEventsTests {
    @Test("C40 each hook once per event, in order, before the event passes on")
    func order() {
        let log = HookLog()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sub.onValue = { value, _ in
            log.add("downstream \(value)"); return value == 1 ? .max(1) : .none
        }
        logged([1, 2, 3].publisher, log).subscribe(sub)
        #expect(
            log.all == [
                "subscription", "request max(2)", "output 1", "downstream 1", "request max(1)",
                "output 2", "downstream 2", "output 3", "downstream 3", "finished",
            ])
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations == [])
    }

    @Test("C40 receiveCancel runs once on cancel, never after completion")
    func cancelOnce() {
        let log = HookLog()
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(logged(source, log))
        sub.cancel()
        sub.cancel()
        #expect(log.all == ["subscription", "request unlimited", "cancel"])

        let finished = HookLog()
        let done = recordSubscriber(logged([1].publisher, finished))
        done.cancel()
        #expect(finished.all == ["subscription", "request unlimited", "output 1", "finished"])
    }

    @Test("C04 a failure reaches the hook and downstream once")
    func failure() {
        let log = HookLog()
        #expect(recordedEvents(logged(Fail<Int, TestError>(error: TestError()), log)) == expectedEvents([], "failure(boom)"))
        #expect(log.all == ["subscription", "request unlimited", "failure"])
    }

    @Test("C08 demand passes through unchanged; request(.none) is not reported")
    func demand() {
        let log = HookLog()
        let sub = recordSubscriber(logged((1...10).publisher, log), demand: .max(2))
        sub.request(.none)
        #expect(sub.values == [1, 2])
        #expect(log.all.filter { $0.hasPrefix("request") } == ["request max(2)"])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.handleEvents() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in source.handleEvents(receiveOutput: { _ in token.touch() }) }
    }
}
