import ReactiveAsync
import Synchronization
import Testing

/// The package's `ReportingSequence`: a sequence that records what is asked of it.
private final class ReportingSequence: Sequence, Sendable {
    enum Event: Equatable { case makeIterator, next }
    private let elements: [Int]
    private let log = Mutex<[Event]>([])

    init(_ elements: [Int]) { self.elements = elements }

    var events: [Event] { log.withLock { $0 } }

    func makeIterator() -> AnyIterator<Int> {
        log.withLock { $0.append(.makeIterator) }
        var base = elements.makeIterator()
        return AnyIterator { [self] in
            log.withLock { $0.append(.next) }
            return base.next()
        }
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestLazy.swift`, rewritten for
/// `ReactiveAsync`: `.async` on an array, a set, an empty array, a reporting sequence (one
/// `makeIterator`, one `next` per element and one for the end, none past the end) and an endless
/// one (cancellation ends the loop).
@Suite(.hangLimit) struct TestLazy {
    @Test func test_lazy_outputs_elements_and_finishes_when_source_is_array() async {
        #expect(await Array([1, 2, 3, 4].async) == [1, 2, 3, 4])
    }

    @Test func test_lazy_outputs_elements_and_finishes_when_source_is_set() async {
        let expected: Set = [1, 2, 3, 4]
        #expect(await Set(expected.async) == expected)
    }

    @Test func test_lazy_finishes_without_elements_when_source_is_empty() async {
        #expect(await Array([Int]().async).isEmpty)
    }

    @Test func test_lazy_triggers_expected_iterator_events_when_source_is_iterated() async {
        let source = ReportingSequence([1, 2, 3])
        let sequence = source.async
        #expect(source.events.isEmpty)
        #expect(await Array(sequence) == [1, 2, 3])
        #expect(source.events == [.makeIterator, .next, .next, .next, .next])
    }

    @Test func test_lazy_stops_triggering_iterator_events_when_source_is_pastEnd() async {
        let source = ReportingSequence([1, 2, 3])
        await expectDrained(source.async, [1, 2, 3])
        // `expectDrained` asked once more past the end: the base was not asked again.
        #expect(source.events == [.makeIterator, .next, .next, .next, .next])
    }

    @Test func test_lazy_finishes_when_task_is_cancelled() async {
        #expect(await lastElementBeforeCancellationEnds(Indefinite(value: "test").async) == "test")
    }
}
