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
