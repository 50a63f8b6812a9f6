import Reactive
import ReactiveTestSupport
import Testing

@Suite("Marble helpers")
struct MarbleTests {
    @Test("parses ticks, values, groups and completions")
    func parse() {
        let events = parseMarbles("-a-(bc)-|")
        #expect(events.map(\.tick) == [1, 3, 3, 5])
        #expect(events.map(\.event) == [.value("a"), .value("b"), .value("c"), .finished])
        #expect(parseMarbles("--#").map(\.event) == [.failure])
    }

    @Test("a source replays its diagram and is drawn back the same")
    func roundTrip() {
        for diagram in ["-a-b-|", "a(bc)--d#", "---", "|", "-(ab)|"] {
            let result = marbles(diagram, expected: diagram) { source, _ in source }
            #expect(result.passed, "\(result)")
        }
    }

    @Test("a mismatch shows both diagrams")
    func mismatch() {
        let result = marbles("-a-|", expected: "--a|") { source, _ in source }
        #expect(!result.passed)
        #expect(result.description.contains("Expected: --a|"))
        #expect(result.description.contains("Actual:   -a-|"))
    }

    @Test("several sources share one scheduler; cancelAt cancels the recorder")
    func severalSources() {
        let result = marbles(["-a---c|", "--b-|"], expected: "-ab--c") { sources, scheduler in
            sources[0].delay(for: .zero, scheduler: scheduler)
                .interleaved(with: sources[1])
        }
        #expect(result.passed, "\(result)")
        let cancelled = marbles("-a-b-c|", expected: "-a-b", cancelAt: 4) { source, _ in source }
        #expect(cancelled.passed, "\(cancelled)")
    }

    @Test("the source is cold: each subscription starts at its own time")
    func cold() {
        let scheduler = VirtualTimeScheduler()
        let source = MarblePublisher("-a|", scheduler: scheduler)
        let first = MarbleRecorder<String, TestError>(scheduler: scheduler)
        source.subscribe(first)
        scheduler.advance(by: .milliseconds(20))
        let second = TestSubscriber<String, TestError>()
        source.subscribe(second)
        scheduler.advance(by: .milliseconds(5))
        #expect(second.values.isEmpty)
        scheduler.advance(by: .milliseconds(100))
        #expect(second.values == ["a"])
        #expect(second.completion == .finished)
        #expect(first.diagram() == "-a|")
    }
}

extension Publisher where Output == String, Failure == TestError {
    /// Interleaves two marble sources by hand (no merge operator on this branch): values of
    /// `other` are forwarded as they come, alongside this publisher's.
    fileprivate func interleaved(with other: MarblePublisher) -> AnyPublisher<String, TestError> {
        let first = self
        return AnyPublisher(Interleave(first: first, second: other))
    }
}

private struct Interleave<First: Publisher>: Publisher where First.Output == String, First.Failure == TestError {
    typealias Output = String
    typealias Failure = TestError
    let first: First
    let second: MarblePublisher
    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == TestError {
        let relay = Relay(subscriber)
        subscriber.receive(subscription: Subscriptions.empty)
        first.subscribe(relay)
        second.subscribe(relay)
    }

    final class Relay<Downstream: Subscriber>: Subscriber where Downstream.Input == String, Downstream.Failure == TestError {
        let downstream: Downstream
        init(_ downstream: Downstream) { self.downstream = downstream }
        func receive(subscription: any Subscription) { subscription.request(.unlimited) }
        func receive(_ input: String) -> Subscribers.Demand { _ = downstream.receive(input); return .none }
        func receive(completion: Subscribers.Completion<TestError>) {}
    }
}
