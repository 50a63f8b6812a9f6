import Testing

@testable import ReactiveAsync

/// The channel's rules without threads: consumers and producers are plain strings.
@Suite struct MultiProducerSingleConsumerStateMachineTests {
    typealias Machine = MultiProducerSingleConsumerStateMachine<Int, MarbleError, String, String>
    struct MarbleError: Error, Equatable {}

    private func one(_ element: Int) -> [(element: Int, weight: Int)] { [(element, 1)] }

    private func token(_ action: Machine.SendAction) -> UInt64? {
        if case .sent(_, let token) = action { return token }
        return nil
    }

    @Test("a send asks the producer to wait from the high watermark on (SAA-0016: 'producers will be suspended')")
    func highWatermark() {
        var machine = Machine(low: 2, high: 4)
        _ = machine.sourceMade()
        for value in 1...3 { #expect(token(machine.send(one(value))) == nil) }
        #expect(token(machine.send(one(4))) != nil)
        #expect(machine.waterLevel == 4)
    }

    @Test("waiting producers resume once a next() brings the level below the low watermark, not before")
    func lowWatermark() {
        var machine = Machine(low: 2, high: 4)
        _ = machine.sourceMade()
        for value in 1...3 { _ = machine.send(one(value)) }
        guard let waitToken = token(machine.send(one(4))) else {
            Issue.record("expected to wait")
            return
        }
        guard case .none = machine.enqueue(token: waitToken, producer: "p") else {
            Issue.record("the producer should wait")
            return
        }
        // Level 4 → 3 → 2: not below low (2) yet.
        for expected in 1...2 {
            guard case .element(let element, let resume) = machine.next() else {
                Issue.record("expected an element")
                return
            }
            #expect(element == expected && resume.isEmpty)
        }
        guard case .element(3, let resume) = machine.next() else {
            Issue.record("expected 3")
            return
        }
        #expect(resume == ["p"])
    }

    @Test("a producer enqueued after demand came back resumes at once (the package's 'interleaved' edge case)")
    func enqueueAfterDemand() {
        var machine = Machine(low: 1, high: 1)
        _ = machine.sourceMade()
        guard let waitToken = token(machine.send(one(1))) else {
            Issue.record("expected to wait")
            return
        }
        _ = machine.next()
        guard case .resume("p") = machine.enqueue(token: waitToken, producer: "p") else {
            Issue.record("expected resume")
            return
        }
    }

    @Test("a producer cancelled before it enqueued fails at its enqueue with a cancellation")
    func cancelBeforeEnqueue() {
        var machine = Machine(low: 1, high: 1)
        _ = machine.sourceMade()
        guard let waitToken = token(machine.send(one(1))) else {
            Issue.record("expected to wait")
            return
        }
        #expect(machine.cancelProducer(token: waitToken) == nil)
        guard case .fail("p", cancelled: true) = machine.enqueue(token: waitToken, producer: "p") else {
            Issue.record("expected failure")
            return
        }
    }

    @Test("a waiting consumer gets the first element of a send directly")
    func directDelivery() {
        // Level 2 after the send, 1 after the delivery: below low (2), so no wait.
        var machine = Machine(low: 2, high: 3)
        _ = machine.sourceMade()
        guard case .suspend = machine.suspend(consumer: "c") else {
            Issue.record("expected the consumer to wait")
            return
        }
        guard case .sent(let delivery, nil) = machine.send([(7, 1), (8, 1)]) else {
            Issue.record("expected produce more")
            return
        }
        #expect(delivery?.consumer == "c" && delivery?.element == 7)
        #expect(machine.bufferedCount == 1)
    }

    @Test("finish lets the consumer drain the buffer, then ends with the failure and calls termination callbacks")
    func finishDrains() {
        var machine = Machine(low: 1, high: 10)
        let source = machine.sourceMade()
        _ = machine.setTermination(source: source, callback: {})
        _ = machine.send(one(1))
        let termination = machine.finish(failure: MarbleError())
        #expect(termination.callbacks.isEmpty && termination.consumer == nil)
        guard case .alreadyFinished = machine.send(one(2)) else {
            Issue.record("a send after finish must throw")
            return
        }
        guard case .element(1, _) = machine.next() else {
            Issue.record("expected 1")
            return
        }
        guard case .terminal(.failure(MarbleError()), let end) = machine.next() else {
            Issue.record("expected the failure")
            return
        }
        #expect(end.callbacks.count == 1)
        guard case .terminal(.success(nil), _) = machine.next() else {
            Issue.record("then nil")
            return
        }
    }

    @Test("the last source dropped finishes; an earlier one does not")
    func lastSourceFinishes() {
        var machine = Machine(low: 1, high: 10)
        _ = machine.sourceMade()
        _ = machine.sourceMade()
        _ = machine.sourceDropped()
        guard case .sent = machine.send(one(1)) else {
            Issue.record("one source is still alive")
            return
        }
        _ = machine.sourceDropped()
        guard case .alreadyFinished = machine.send(one(2)) else {
            Issue.record("expected finished")
            return
        }
    }

    @Test("the consumer's end fails waiting producers, drops the buffer and calls the callbacks")
    func consumerEnd() {
        var machine = Machine(low: 1, high: 1)
        let source = machine.sourceMade()
        _ = machine.setTermination(source: source, callback: {})
        guard let waitToken = token(machine.send(one(1))) else {
            Issue.record("expected to wait")
            return
        }
        _ = machine.enqueue(token: waitToken, producer: "p")
        let end = machine.consumerEnded()
        #expect(end.producers == ["p"] && end.dropped == [1] && end.callbacks.count == 1)
        #expect(machine.consumerEnded().callbacks.isEmpty, "only once")
        #expect(machine.setTermination(source: source, callback: {}).callNow != nil, "a callback set after the end is called at once")
    }

    @Test("the channel dropped after becoming a sequence does not end it; the sequence dropped before an iterator does")
    func dropOrder() {
        var machine = Machine(low: 1, high: 1)
        _ = machine.sourceMade()
        machine.markSequenceMade()
        _ = machine.channelDropped()
        guard case .sent = machine.send(one(1)) else {
            Issue.record("still channeling")
            return
        }
        _ = machine.sequenceDropped()
        guard case .alreadyFinished = machine.send(one(2)) else {
            Issue.record("expected finished")
            return
        }
    }

    @Test("only the first iterator consumes")
    func oneIterator() {
        var machine = Machine(low: 1, high: 1)
        let first = machine.markIteratorMade()
        let second = machine.markIteratorMade()
        #expect(first && !second)
    }
}
