import Testing
import Reactive
import ReactiveTestSupport

// A sequence asked for `.unlimited` at once runs a loop of its own (`emitUnlimited`), and a sink
// fed by a sequence takes a short path after its first value (`Sink.receive`). The facts pinned
// here are Combine's: `Subscribers.Demand.unlimited` stays unlimited whatever is added to it (the
// documentation of `Subscribers.Demand`: "unlimited" absorbs every addition), so what `receive`
// returns under unlimited demand changes nothing; `Publishers.Sequence` sends each element once,
// in order, then `.finished`; a cancel stops it before the next element (C15).
@Suite("Core: a sequence under unlimited demand")
struct SequenceUnlimitedTests {
    @Test("C09 under unlimited demand, the demand a value returns changes nothing: every element once, then finished")
    func returnedDemandIgnored() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        sub.onValue = { value, _ in value % 2 == 0 ? .max(3) : .none }
        (1...7).publisher.subscribe(sub)
        #expect(sub.values == [1, 2, 3, 4, 5, 6, 7])
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C09 limited demand that becomes unlimited from inside a value: the rest follows in order, finished once")
    func limitedThenUnlimited() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sub.onValue = { value, s in
            if value == 2 { s.request(.unlimited) }
            return .none
        }
        (1...6).publisher.subscribe(sub)
        #expect(sub.values == [1, 2, 3, 4, 5, 6])
        #expect(sub.completion == .finished)
        #expect(sub.maxNesting <= 1)
        #expect(sub.violations.isEmpty)
    }

    @Test("C15 a cancel inside a value under unlimited demand: no element and no completion after it")
    func cancelInsideValue() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        sub.onValue = { value, s in
            if value == 3 { s.cancel() }
            return .none
        }
        (1...10).publisher.subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.completion == nil)
        #expect(sub.eventsAfterCancel.isEmpty)
        #expect(sub.violations.isEmpty)
    }

    @Test("the last element goes out, then the completion, under unlimited demand (one element and many)")
    func lastElementThenFinished() {
        for count in [1, 2, 1000] {
            let sub = TestSubscriber<Int, Never>(initialDemand: .unlimited)
            (1...count).publisher.subscribe(sub)
            #expect(sub.values == Array(1...count))
            #expect(sub.events.last == .finished)
        }
    }

    @Test("a sink on a sequence through tryMap/tryFilter: its first value and every later one arrive, then the completion")
    func sinkFirstAndLaterValues() {
        var seen: [Int] = []
        var completions: [Subscribers.Completion<any Error>] = []
        let c = (1...6).publisher
            .tryMap { $0 * 3 }
            .tryFilter { $0 % 2 == 0 }
            .sink(receiveCompletion: { completions.append($0) }, receiveValue: { seen.append($0) })
        #expect(seen == [6, 12, 18])
        #expect(completions.count == 1)
        if case .finished = completions.first {} else { Issue.record("expected .finished, got \(completions)") }
        c.cancel()
    }

    @Test("C15 a sink cancelled inside its first value, and one inside a later value: nothing after the cancel")
    func sinkCancelInFirstAndLater() {
        for stopAt in [6, 18] {
            var seen: [Int] = []
            var completed = false
            // The sink itself, not the AnyCancellable `sink(...)` returns: the sequence delivers
            // while it is being subscribed, before `sink(...)` has returned anything to cancel.
            var sink: Subscribers.Sink<Int, any Error>?
            let subscriber = Subscribers.Sink<Int, any Error>(
                receiveCompletion: { _ in completed = true },
                receiveValue: { value in
                    seen.append(value)
                    if value == stopAt { sink?.cancel() }
                })
            sink = subscriber
            (1...10).publisher
                .tryMap { $0 * 3 }
                .tryFilter { $0 % 2 == 0 }
                .subscribe(subscriber)
            #expect(seen == Array([6, 12, 18].prefix { $0 <= stopAt }))
            #expect(!completed)
            sink = nil
        }
    }
}
