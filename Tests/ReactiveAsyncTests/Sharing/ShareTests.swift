import Testing

@testable import ReactiveAsync

/// Iterates `sequence` with `sides` iterators made before any of them starts, each in its own task.
private func consumeShared<S: AsyncSequence & Sendable>(_ sequence: S, sides: Int) async -> [([Int], TestError?)]
where S.Element == Int, S.Failure == TestError {
    var iterators = (0..<sides).map { _ in sequence.makeAsyncIterator() }
    return await withTaskGroup(of: (Int, [Int], TestError?).self) { group in
        for index in 0..<sides {
            // Each iterator is made before any side starts (no replay) and moved into one task only.
            nonisolated(unsafe) var iterator = iterators.removeFirst()
            group.addTask {
                var elements: [Int] = []
                do throws(TestError) {
                    while let value = try await iterator.next(isolation: nil) { elements.append(value) }
                    return (index, elements, nil)
                } catch {
                    return (index, elements, error)
                }
            }
        }
        var results = [([Int], TestError?)](repeating: ([], nil), count: sides)
        for await (index, elements, failure) in group { results[index] = (elements, failure) }
        return results
    }
}

@Suite(.hangLimit) struct ShareTests {
    @Test("the guide's example: two sides iterating [0, 1, 2, 3, 4] unbounded both get every element in order")
    func guideExample() async {
        // The package's Share guide: "it is guaranteed that all values are represented in the output".
        let results = await consumeShared(ScriptedSequence([0, 1, 2, 3, 4]).share(bufferingPolicy: .unbounded), sides: 2)
        for (elements, failure) in results {
            #expect(elements == [0, 1, 2, 3, 4])
            #expect(failure == nil)
        }
    }

    @Test("the default .bounded(1): slow and fast sides both get every element")
    func boundedDefault() async {
        let results = await consumeShared(ScriptedSequence(Array(0..<50)).share(), sides: 3)
        for (elements, _) in results { #expect(elements == Array(0..<50)) }
    }

    @Test("the base's failure reaches every side after the elements")
    func baseFailure() async {
        let results = await consumeShared(ScriptedSequence([1, 2], thenFail: TestError(tag: 5)).share(), sides: 2)
        for (elements, failure) in results {
            #expect(elements == [1, 2])
            #expect(failure == TestError(tag: 5))
        }
    }

    @Test("empty input: every side ends at once")
    func empty() async {
        let results = await consumeShared(ScriptedSequence([Int]()).share(), sides: 2)
        for (elements, failure) in results {
            #expect(elements.isEmpty)
            #expect(failure == nil)
        }
    }

    @Test("no base iteration before the first demand")
    func lazyStart() async {
        // The package's Share guide: "No task is started initially; it is only upon the first demand".
        let probe = IterationProbe()
        let shared = InstrumentedSequence(endlessStream(), probe: probe).share()
        let iterator = shared.makeAsyncIterator()
        try? await Task.sleep(for: .milliseconds(10))
        #expect(probe.nextCalls == 0)
        _ = iterator
    }

    @Test("a cancelled side leaves; the other side goes on and gets every element")
    func cancelledSideLeaves() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let shared = stream.share(bufferingPolicy: .bounded(1))
        let received = StateLock<[Int]>([])
        let stays = Task { for await value in shared { received.withLock { $0.append(value) } } }
        let leaves = Task { for await _ in shared {} }
        try? await Task.sleep(for: .milliseconds(10))
        leaves.cancel()
        await leaves.value
        for value in 0..<20 { continuation.yield(value) }
        continuation.finish()
        await stays.value
        #expect(received.withLock { $0 } == Array(0..<20))
    }

    @Test("cancelling every consuming task and dropping the sequence ends the base's task")
    func cancellationEndsBase() async {
        let probe = IterationProbe()
        do {
            let shared = InstrumentedSequence(endlessStream(), probe: probe).share()
            let consumers = (0..<3).map { _ in Task { for await _ in shared {} } }
            #expect(await eventually { probe.iteratingNow == 1 })
            for consumer in consumers { consumer.cancel() }
            for consumer in consumers { await consumer.value }
        }
        #expect(await probe.settled(), "\(probe.liveIterators) alive, \(probe.iteratingNow) in next()")
    }

    @Test("property: lossless policies give every side the input; dropping ones an ordered subsequence", arguments: 0..<20)
    func property(seed: Int) async {
        var random = SplitMix(seed: UInt64(seed))
        let input = (0..<Int(random.next() % 30)).map { $0 * 10 + Int(random.next() % 10) }
        let sides = Int(random.next() % 3) + 1
        let limit = Int(random.next() % 4) + 1
        let policies: [AsyncBufferSequencePolicy] = [.bounded(limit), .unbounded, .bufferingLatest(limit), .bufferingOldest(limit)]
        for policy in policies {
            let results = await consumeShared(ScriptedSequence(input).share(bufferingPolicy: policy), sides: sides)
            for (elements, failure) in results {
                #expect(failure == nil)
                switch policy.kind {
                case .bounded, .unbounded:
                    // The model: every side sees the whole input (the guide: bounded drops nothing).
                    #expect(elements == input, "seed \(seed) \(policy.kind)")
                default:
                    // The model: a strictly increasing input stays increasing and loses only elements.
                    #expect(elements == elements.sorted() && Set(elements).isSubset(of: Set(input)), "seed \(seed) \(policy.kind)")
                }
            }
        }
    }
}

@Suite struct ShareStateMachineTests {
    typealias Machine = ShareStateMachine<Int, TestError, String, String>

    @Test("the producer waits for a side to wait; then the element goes to every waiting side")
    func demandDriven() {
        var machine = Machine(policy: .bounded(1))
        let a = machine.registerSide()
        let b = machine.registerSide()
        guard case .suspend = machine.waitForDemand() else { Issue.record("expected no demand yet"); return }
        #expect(machine.waitForDemand(producer: "p") == nil)
        guard case .suspend(startTask: true) = machine.next(side: a) else { Issue.record("expected start"); return }
        guard case .none(resumeProducer: "p") = machine.nextSuspended(side: a, consumer: "a", isCancelled: false) else {
            Issue.record("expected the producer resumed")
            return
        }
        #expect(Array(machine.produced(1)) == ["a"])
        // b has not read 1: the bounded(1) buffer is full, the producer must wait.
        guard case .suspend = machine.waitForDemand() else { Issue.record("expected full"); return }
        guard case .element(1, _) = machine.next(side: b) else { Issue.record("expected b to read 1"); return }
    }

    @Test("a side made later starts at the end: no replay")
    func noReplay() {
        var machine = Machine(policy: .unbounded)
        let a = machine.registerSide()
        _ = machine.next(side: a)
        _ = machine.nextSuspended(side: a, consumer: "a", isCancelled: false)
        _ = machine.produced(1)
        let late = machine.registerSide()
        guard case .suspend(startTask: false) = machine.next(side: late) else { Issue.record("expected nothing to read"); return }
    }

    @Test("when the sequence and every side are gone the task is cancelled and the producer stopped")
    func stopsWhenUnused() {
        var machine = Machine(policy: .bounded(1))
        let a = machine.registerSide()
        _ = machine.next(side: a)
        _ = machine.waitForDemand(producer: "p")
        #expect(machine.sequenceDropped().cancelTask == false)
        let stop = machine.unregisterSide(a)
        #expect(stop.producer == "p")
        #expect(stop.resumeWith == false)
        #expect(stop.cancelTask)
    }
}
