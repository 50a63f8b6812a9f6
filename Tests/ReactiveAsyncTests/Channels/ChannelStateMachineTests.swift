import Testing

@testable import ReactiveAsync

/// The channel's rendezvous without threads: producers and consumers are plain names.
@Suite struct ChannelStateMachineTests {
    typealias Machine = ChannelStateMachine<Int, TestError, String, String>

    @Test("a send with nobody waiting suspends; the next consumer takes its element and resumes it")
    func sendThenNext() {
        // The package's Channel guide: send "returns when the next iteration of the channel is invoked".
        var machine = Machine()
        guard case .suspend(_) = machine.sendImmediately() else { Issue.record("expected suspend"); return }
        guard case .none = machine.send(1, producer: "p1", id: machine.makeID(), isCancelled: false) else {
            Issue.record("expected the producer to stay suspended")
            return
        }
        guard case .resumeProducer(let producer, let element) = machine.nextImmediately() else {
            Issue.record("expected the waiting producer")
            return
        }
        #expect(producer == "p1")
        #expect(element == 1)
    }

    @Test("a waiting consumer gets the element at once and the producer never suspends")
    func nextThenSend() {
        var machine = Machine()
        guard case .suspend(_) = machine.nextImmediately() else { Issue.record("expected suspend"); return }
        guard case .none = machine.next(consumer: "c1", id: machine.makeID(), isCancelled: false) else {
            Issue.record("expected the consumer to stay suspended")
            return
        }
        guard case .resumeConsumer(let consumer) = machine.sendImmediately() else { Issue.record("expected c1"); return }
        #expect(consumer == "c1")
    }

    @Test("producers and consumers are served first come, first served")
    func fifo() {
        var machine = Machine()
        _ = machine.send(1, producer: "p1", id: machine.makeID(), isCancelled: false)
        _ = machine.send(2, producer: "p2", id: machine.makeID(), isCancelled: false)
        var order: [String] = []
        while case .resumeProducer(let producer, _) = machine.nextImmediately() { order.append(producer) }
        #expect(order == ["p1", "p2"])
        _ = machine.next(consumer: "c1", id: machine.makeID(), isCancelled: false)
        _ = machine.next(consumer: "c2", id: machine.makeID(), isCancelled: false)
        var consumers: [String] = []
        while case .resumeConsumer(let consumer) = machine.sendImmediately() { consumers.append(consumer) }
        #expect(consumers == ["c1", "c2"])
    }

    @Test("a cancelled send is removed and resumed; its element never reaches a consumer")
    func cancelledSend() {
        var machine = Machine()
        let first = machine.makeID()
        _ = machine.send(1, producer: "p1", id: first, isCancelled: false)
        _ = machine.send(2, producer: "p2", id: machine.makeID(), isCancelled: false)
        #expect(machine.sendCancelled(id: first) == "p1")
        #expect(machine.sendCancelled(id: first) == nil)
        guard case .resumeProducer(_, let element) = machine.nextImmediately() else { Issue.record("expected p2"); return }
        #expect(element == 2)
    }

    @Test("a send or next whose task is already cancelled resumes at once")
    func alreadyCancelled() {
        var machine = Machine()
        guard case .resumeProducer("p1") = machine.send(1, producer: "p1", id: machine.makeID(), isCancelled: true) else {
            Issue.record("expected p1 resumed")
            return
        }
        guard case .resumeConsumer("c1", .success(nil)) = machine.next(consumer: "c1", id: machine.makeID(), isCancelled: true) else {
            Issue.record("expected c1 resumed with nil")
            return
        }
    }

    @Test("finish resumes every producer and consumer; afterwards next is nil and send is dropped")
    func finish() {
        var machine = Machine()
        _ = machine.send(1, producer: "p1", id: machine.makeID(), isCancelled: false)
        let action = machine.finish(failure: nil)
        #expect(action.producers == ["p1"])
        #expect(action.consumers.isEmpty)
        guard case .terminal(.success(nil)) = machine.nextImmediately() else { Issue.record("expected nil"); return }
        guard case .dropped = machine.sendImmediately() else { Issue.record("expected dropped"); return }
        #expect(machine.finish(failure: TestError()).producers.isEmpty)
    }

    @Test("a failure with consumers waiting goes to each of them, then next is nil")
    func failWithWaitingConsumers() {
        // The package's ChannelStateMachine.finish(error:), as read: suspended consumers take the error.
        var machine = Machine()
        _ = machine.next(consumer: "c1", id: machine.makeID(), isCancelled: false)
        _ = machine.next(consumer: "c2", id: machine.makeID(), isCancelled: false)
        let action = machine.finish(failure: TestError(tag: 7))
        #expect(action.consumers == ["c1", "c2"])
        #expect(throws: TestError(tag: 7)) { try action.consumerResult.get() }
        guard case .terminal(.success(nil)) = machine.nextImmediately() else { Issue.record("expected nil"); return }
    }

    @Test("a failure with nobody waiting is thrown by the next call to next, once")
    func failWithoutConsumers() {
        var machine = Machine()
        _ = machine.finish(failure: TestError(tag: 3))
        guard case .terminal(.failure(TestError(tag: 3))) = machine.nextImmediately() else { Issue.record("expected failure"); return }
        guard case .terminal(.success(nil)) = machine.nextImmediately() else { Issue.record("expected nil"); return }
    }
}
