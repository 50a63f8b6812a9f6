import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct BufferTests {
    static let policies: [(String, AsyncBufferSequencePolicy)] = [
        ("bounded(3)", .bounded(3)), ("unbounded", .unbounded), ("bufferingLatest(3)", .bufferingLatest(3)),
        ("bufferingOldest(3)", .bufferingOldest(3)), ("bounded(0)", .bounded(0)),
    ]

    static let losslessPolicies: [(String, AsyncBufferSequencePolicy)] = [
        ("bounded(1)", .bounded(1)), ("bounded(3)", .bounded(3)), ("unbounded", .unbounded), ("bounded(0)", .bounded(0)),
    ]

    @Test("every element arrives in order and the sequence ends when the base finishes", arguments: losslessPolicies)
    func passesElementsThrough(name: String, policy: AsyncBufferSequencePolicy) async {
        let (elements, failure) = await collect(ScriptedSequence(Array(1...50)).buffer(policy: policy))
        #expect(elements == Array(1...50), "\(name)")
        #expect(failure == nil)
    }

    @Test("empty input: the buffered sequence is empty", arguments: policies)
    func empty(name: String, policy: AsyncBufferSequencePolicy) async {
        let (elements, failure) = await collect(ScriptedSequence([Int]()).buffer(policy: policy))
        #expect(elements.isEmpty, "\(name)")
        #expect(failure == nil)
    }

    @Test("the base's failure is thrown after the elements buffered before it, then nil", arguments: policies)
    func failureAfterBufferedElements(name: String, policy: AsyncBufferSequencePolicy) async throws {
        // The package's Buffer guide / source: the failure is kept behind the buffered elements.
        let probe = IterationProbe()
        let base = InstrumentedSequence(ScriptedSequence([1, 2, 3], thenFail: TestError(tag: 9)), probe: probe)
        var iterator = base.buffer(policy: policy).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        // Let the base's task reach the failure before the consumer asks again (not for bounded(0)).
        if name != "bounded(0)" { #expect(await eventually { probe.liveIterators == 0 }) }
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == 3)
        do {
            _ = try await iterator.next()
            Issue.record("expected the base's failure")
        } catch {
            #expect(error == TestError(tag: 9))
        }
        #expect(try await iterator.next() == nil)
    }

    @Test("typed throws: a base that cannot fail is iterated with for await")
    func nonThrowingBase() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        var received: [Int] = []
        for await value in stream.buffer(policy: .unbounded) { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test("bounded(n) stops pulling from the base while n elements wait")
    func boundedPausesBase() async throws {
        // The package's AsyncBufferSequencePolicy.bounded doc: "consumption of the upstream … will be paused".
        let probe = IterationProbe()
        var iterator = InstrumentedSequence(ScriptedSequence(Array(1...100)), probe: probe).buffer(policy: .bounded(2)).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(await eventually { probe.nextCalls >= 3 })
        try? await Task.sleep(for: .milliseconds(20))
        // one element delivered, two buffered; the task waits for room before asking for a fourth.
        #expect(probe.nextCalls == 3)
        #expect(try await iterator.next() == 2)
        #expect(await eventually { probe.nextCalls == 4 })
    }

    @Test("bufferingLatest(n) keeps the newest n, bufferingOldest(n) the oldest n", arguments: [true, false])
    func droppingPolicies(latest: Bool) async throws {
        let probe = IterationProbe()
        let base = InstrumentedSequence(ScriptedSequence(Array(1...10)), probe: probe)
        var iterator = base.buffer(policy: latest ? .bufferingLatest(3) : .bufferingOldest(3)).makeAsyncIterator()
        // The first element goes straight to the waiting consumer; the rest are buffered.
        #expect(try await iterator.next() == 1)
        #expect(await eventually { probe.liveIterators == 0 })
        var rest: [Int] = []
        while let value = try await iterator.next() { rest.append(value) }
        #expect(rest == (latest ? [8, 9, 10] : [2, 3, 4]))
    }

    @Test("a limit of zero buffers nothing: the base is pulled only as the consumer asks")
    func zeroLimitIsTransparent() async throws {
        // The package's source: a limit of 0 iterates the base directly ("transparent").
        let probe = IterationProbe()
        var iterator = InstrumentedSequence(ScriptedSequence(Array(1...10)), probe: probe).buffer(policy: .bufferingLatest(0)).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        try? await Task.sleep(for: .milliseconds(10))
        #expect(probe.nextCalls == 1)
    }

    @Test("no task and no base iteration before the first next()")
    func lazyStart() async {
        let probe = IterationProbe()
        let iterator = InstrumentedSequence(endlessStream(), probe: probe).buffer(policy: .unbounded).makeAsyncIterator()
        try? await Task.sleep(for: .milliseconds(10))
        #expect(probe.iteratorsMade == 0)
        _ = iterator
    }

    @Test("cancelling the consuming task ends the base's task: no base left iterating", arguments: policies)
    func cancellationEndsBase(name: String, policy: AsyncBufferSequencePolicy) async {
        let probe = IterationProbe()
        let buffered = InstrumentedSequence(endlessStream(), probe: probe).buffer(policy: policy)
        let consumer = Task {
            var count = 0
            for await _ in buffered { count += 1 }
            return count
        }
        #expect(await eventually { probe.iteratingNow == 1 }, "\(name)")
        consumer.cancel()
        #expect(await consumer.value == 0)
        #expect(await probe.settled(), "\(name): \(probe.liveIterators) iterators alive, \(probe.iteratingNow) in next()")
    }

    @Test("dropping the iterator cancels the base's task, also for .unbounded", arguments: policies)
    func droppingIteratorEndsBase(name: String, policy: AsyncBufferSequencePolicy) async {
        // Issue 42: the package's `.unbounded` buffer never cancels its base when its iterator is dropped; this one does.
        let probe = IterationProbe()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        do {
            var iterator = InstrumentedSequence(stream, probe: probe).buffer(policy: policy).makeAsyncIterator()
            #expect(await iterator.next() == 1)
        }
        #expect(await probe.settled(), "\(name): \(probe.liveIterators) iterators alive, \(probe.iteratingNow) in next()")
        continuation.finish()
    }

    @Test("property: generated inputs through each policy match a synchronous model", arguments: 0..<30)
    func propertyAgainstModel(seed: Int) async throws {
        var random = SplitMix(seed: UInt64(seed))
        let input = (0..<Int(random.next() % 40)).map { _ in Int(random.next() % 1000) }
        let limit = Int(random.next() % 5) + 1
        let probe = IterationProbe()
        let base = InstrumentedSequence(ScriptedSequence(input), probe: probe)
        for policy in [AsyncBufferSequencePolicy.bufferingLatest(limit), .bufferingOldest(limit), .unbounded, .bounded(limit)] {
            var iterator = base.buffer(policy: policy).makeAsyncIterator()
            var output: [Int] = []
            if let first = try await iterator.next() { output.append(first) }
            // The dropping policies are deterministic once the base has ended; bounded cannot end early.
            if policy.kind != .bounded(limit) { #expect(await eventually { probe.liveIterators == 0 }) }
            while let value = try await iterator.next() { output.append(value) }
            // The model: the base's task starts before the first next() suspends (as in the
            // package's BufferStorage), so the base may have produced any number of elements into
            // the buffer before that consumer waits; every such moment gives one allowed output.
            // (The model with the consumer always first failed 4 cases of seeds 2, 6 and 19 in a
            // serial run on a loaded machine.)
            let allowed = (0...input.count).map { Self.model(input, policy.kind, producedBeforeTheConsumerWaits: $0) }
            #expect(allowed.contains(output), "seed \(seed), \(policy.kind): \(output), not one of \(allowed)")
        }
    }

    /// What the consumer gets when the base produces `early` elements before the first next()
    /// waits, then the rest before the consumer asks again (the test waits for the base to end).
    static func model(_ input: [Int], _ kind: AsyncBufferSequencePolicy.Kind, producedBeforeTheConsumerWaits early: Int) -> [Int] {
        var buffer: [Int] = []
        var output: [Int] = []
        var waiting = false
        func produce(_ element: Int) {
            if waiting {
                output.append(element)
                waiting = false
                return
            }
            switch kind {
            case .bufferingNewest(let limit):
                buffer.append(element)
                if buffer.count > limit { buffer.removeFirst() }
            case .bufferingOldest(let limit):
                if buffer.count < limit { buffer.append(element) }
            case .unbounded, .bounded:
                buffer.append(element)
            }
        }
        input.prefix(early).forEach(produce)
        if buffer.isEmpty { waiting = true } else { output.append(buffer.removeFirst()) }
        input.dropFirst(early).forEach(produce)
        return output + buffer
    }
}

@Suite struct BufferStateMachineTests {
    typealias Machine = BufferStateMachine<Int, TestError, String, String>

    @Test("the first next starts the task; an element produced then goes to the waiting consumer")
    func firstNext() {
        var machine = Machine(policy: .unbounded)
        guard case .startTaskAndSuspend = machine.next() else { Issue.record("expected start"); return }
        guard case .none = machine.nextSuspended(consumer: "c", isCancelled: false) else { Issue.record("expected wait"); return }
        guard case .resumeConsumer("c") = machine.produced(1) else { Issue.record("expected c resumed"); return }
    }

    @Test("bounded: a full buffer suspends the producer; taking an element resumes it")
    func boundedBackPressure() {
        var machine = Machine(policy: .bounded(1))
        _ = machine.next()
        _ = machine.produced(1)
        guard case .suspend = machine.waitForRoom() else { Issue.record("expected suspend"); return }
        #expect(machine.waitForRoom(producer: "p") == nil)
        guard case .element(1, resumeProducer: "p") = machine.next() else { Issue.record("expected 1 and p"); return }
    }

    @Test("cancelling a suspended consumer ends the buffer and stops the producer")
    func consumerCancelled() {
        var machine = Machine(policy: .bounded(1))
        _ = machine.next()
        _ = machine.nextSuspended(consumer: "c", isCancelled: false)
        let resumed = machine.consumerCancelled()
        #expect(resumed?.consumer == "c")
        guard case .stop = machine.waitForRoom() else { Issue.record("expected stop"); return }
        guard case .terminal(.success(nil)) = machine.next() else { Issue.record("expected nil"); return }
    }

    @Test("the base's end waits behind buffered elements; a failure is thrown once")
    func draining() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        _ = machine.produced(1)
        #expect(machine.baseEnded(failure: TestError(tag: 1)) == nil)
        guard case .element(1, _) = machine.next() else { Issue.record("expected 1"); return }
        guard case .terminal(.failure(TestError(tag: 1))) = machine.next() else { Issue.record("expected failure"); return }
        guard case .terminal(.success(nil)) = machine.next() else { Issue.record("expected nil"); return }
    }

    @Test("unbounded: everything buffered is handed over at once, in order, the end kept behind it")
    func unboundedHandsOverAll() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next(batching: true)
        for value in 1...3 { _ = machine.produced(value) }
        #expect(machine.baseEnded(failure: nil) == nil)
        guard case .elements(1, var rest) = machine.next(batching: true) else { Issue.record("expected 1 and the rest"); return }
        #expect([rest.popFirst(), rest.popFirst(), rest.popFirst()] == [2, 3, nil])
        guard case .terminal(.success(nil)) = machine.next(batching: true) else { Issue.record("expected the end"); return }
    }

    @Test("bounded: one element at a time, and a produced element that fills the buffer says so")
    func boundedOneAtATime() {
        var machine = Machine(policy: .bounded(2))
        _ = machine.next(batching: true)
        guard case .none = machine.produced(1) else { Issue.record("expected room"); return }
        guard case .full = machine.produced(2) else { Issue.record("expected full"); return }
        guard case .element(1, resumeProducer: nil) = machine.next(batching: true) else { Issue.record("expected 1 alone"); return }
    }

    @Test("dropping the iterator while the task runs asks to cancel it")
    func iteratorDropped() {
        var machine = Machine(policy: .unbounded)
        #expect(machine.iteratorDropped().cancelTask == false)
        var running = Machine(policy: .unbounded)
        _ = running.next()
        #expect(running.iteratorDropped().cancelTask)
    }
}
