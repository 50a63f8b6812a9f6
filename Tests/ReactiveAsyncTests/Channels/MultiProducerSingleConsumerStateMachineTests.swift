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

    // MARK: Where this channel differs from the package (DifferencesBuffering.md)

    /// A machine with one live source.
    private func machine(low: Int, high: Int) -> Machine {
        var machine = Machine(low: low, high: high)
        _ = machine.sourceMade()
        return machine
    }

    /// Sends `value`, which must leave its producer waiting, and enqueues `producer`: the token.
    private func sendAndWait(_ machine: inout Machine, _ value: Int, as producer: String, sourceLocation: SourceLocation = #_sourceLocation) -> UInt64 {
        guard let waitToken = token(machine.send(one(value))) else {
            Issue.record("expected the producer to wait", sourceLocation: sourceLocation)
            return 0
        }
        guard case .none = machine.enqueue(token: waitToken, producer: producer) else {
            Issue.record("expected the producer to be enqueued", sourceLocation: sourceLocation)
            return waitToken
        }
        return waitToken
    }

    // The package's watermark resumes producers when the level is below `low`
    // (`_currentWatermark < _low` in MultiProducerSingleConsumerAsyncChannel+Internal.swift): with
    // `low: 0` never, so they wait on an empty buffer for ever. Here an empty buffer resumes them.
    @Test("low: 0: a producer waiting at the high watermark resumes once next() empties the buffer")
    func lowZeroResumesOnEmptyBuffer() {
        var machine = machine(low: 0, high: 1)
        _ = sendAndWait(&machine, 1, as: "p")
        guard case .element(1, let resume) = machine.next() else {
            Issue.record("expected 1")
            return
        }
        #expect(resume == ["p"])
    }

    @Test("low: 0: a send handed straight to a waiting consumer leaves the buffer empty, so the producer need not wait")
    func lowZeroDirectDelivery() {
        var machine = machine(low: 0, high: 1)
        guard case .suspend = machine.suspend(consumer: "c") else {
            Issue.record("expected the consumer to wait")
            return
        }
        guard case .sent(let delivery, let waitToken) = machine.send(one(1)) else {
            Issue.record("expected a delivery")
            return
        }
        #expect(delivery?.element == 1)
        #expect(waitToken == nil, "the buffer is empty again: produce more")
    }

    @Test("low: 2 still waits for the level to go below 2 while elements remain (the package's rule)")
    func lowWatermarkUnchanged() {
        var machine = machine(low: 2, high: 3)
        for value in 1...2 { _ = machine.send(one(value)) }
        _ = sendAndWait(&machine, 3, as: "p")
        guard case .element(1, let early) = machine.next(), case .element(2, let resumed) = machine.next() else {
            Issue.record("expected 1, 2")
            return
        }
        #expect(early.isEmpty && resumed == ["p"])
    }

    // The package's `cancelProducer` appends any token it does not find waiting to
    // `cancelledAsyncProducers`, which only an `enqueue` of that token empties: a producer
    // cancelled after it was resumed leaves its token there for the channel's life.
    @Test("a cancellation after the producer was resumed is forgotten: nothing grows")
    func cancelAfterResumeIsForgotten() {
        var machine = machine(low: 1, high: 1)
        for value in 1...100 {
            let waitToken = sendAndWait(&machine, value, as: "p\(value)")
            _ = machine.next()  // resumes the producer
            #expect(machine.cancelProducer(token: waitToken) == nil)
        }
        #expect(machine.rememberedTokenCount == 0)
        // An unknown token is not kept either.
        #expect(machine.cancelProducer(token: 12_345) == nil)
        #expect(machine.rememberedTokenCount == 0)
    }

    @Test("a token is remembered from its send to its enqueue only, cancelled or not")
    func tokensForgottenAtEnqueue() {
        var machine = machine(low: 1, high: 1)
        guard let first = token(machine.send(one(1))) else {
            Issue.record("expected to wait")
            return
        }
        #expect(machine.rememberedTokenCount == 1)
        _ = machine.cancelProducer(token: first)
        #expect(machine.rememberedTokenCount == 1)
        guard case .fail("p", cancelled: true) = machine.enqueue(token: first, producer: "p") else {
            Issue.record("the cancellation before the enqueue still fails it")
            return
        }
        #expect(machine.rememberedTokenCount == 0)
    }
}
