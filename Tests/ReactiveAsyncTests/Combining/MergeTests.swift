import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct MergeTests {
    // The Merge guide: elements come out in the order the bases produce them; the sequence ends
    // when every base has ended.
    @Test("merge emits each base's elements as they arrive and finishes after both bases")
    func interleavesAndFinishesAfterBoth() async {
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
        var iterator = merge(first, second).makeAsyncIterator()
        firstInput.yield(1)
        #expect(await iterator.next() == 1)
        secondInput.yield(2)
        #expect(await iterator.next() == 2)
        firstInput.finish()
        secondInput.yield(3)
        #expect(await iterator.next() == 3)
        secondInput.finish()
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    // The Merge guide's three-base form.
    @Test("merge of three bases emits every element of each")
    func threeBases() async {
        let values = await merge([1, 2].async, [3].async, [4, 5, 6].async).collect()
        #expect(values.sorted() == [1, 2, 3, 4, 5, 6])
        // Each base's own order survives the interleaving.
        #expect(values.filter { $0 >= 4 } == [4, 5, 6])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("merge of empty bases finishes at once")
    func emptyBases() async {
        let values = await merge([Int]().async, [Int]().async).collect()
        #expect(values.isEmpty)
    }

    // The Merge guide: "the first error thrown by any base is rethrown and the other bases are
    // cancelled"; nothing follows the error.
    @Test("merge rethrows the first failure, cancels the other base and ends")
    func failureCancelsTheOthers() async throws {
        let counter = IterationCounter()
        let (quiet, _) = AsyncStream.makeStream(of: Int.self)
        let (failing, failingInput) = AsyncThrowingStream.makeStream(of: Int.self)
        var iterator = merge(quiet.tracked(by: counter), failing).makeAsyncIterator()
        failingInput.yield(1)
        #expect(try await iterator.next() == 1)
        failingInput.finish(throwing: TestFailure(id: 7))
        await #expect(throws: TestFailure(id: 7)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        await waitUntil { counter.live == 0 }
        #expect(counter.started == 1)
    }

    // Issue 42: cancelling the consumer ends every iterator and every task the operator started.
    @Test("cancelling the consumer ends both bases' iterations and the operator's task")
    func cancellationEndsEverything() async {
        let counter = IterationCounter()
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let (second, _) = AsyncStream.makeStream(of: Int.self)
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let tasks = await countingOperatorTasks {
            let consumer = Task {
                var received: [Int] = []
                for await value in merge(first.tracked(by: counter), second.tracked(by: counter)) {
                    received.append(value)
                    startedInput.yield()
                }
                return received
            }
            firstInput.yield(1)
            var signals = started.makeAsyncIterator()
            await signals.next()
            consumer.cancel()
            firstInput.yield(2)  // may or may not be read before the cancel lands; never after nil
            let received = await consumer.value
            #expect(received.first == 1)
            #expect(received.count <= 2)
        }
        await waitUntil { counter.live == 0 && tasks.running == 0 }
        #expect(counter.started == 2)
    }

    // The package's MergeStorage cancels its task when the iterator is deinitialized (its source, as read).
    @Test("dropping the iterator ends the bases' iterations")
    func droppingTheIterator() async {
        let counter = IterationCounter()
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        do {
            var iterator = merge(first.tracked(by: counter), AsyncStream<Int> { _ in }.tracked(by: counter)).makeAsyncIterator()
            firstInput.yield(1)
            #expect(await iterator.next() == 1)
        }
        await waitUntil { counter.live == 0 }
    }

    // A plain model: fed one element at a time, merge passes them through in feeding order.
    @Test("merge matches a synchronous model on generated inputs", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let events = (0..<Int.random(in: 0...40, using: &random)).map { _ in (Int.random(in: 0...2, using: &random), Int.random(in: 0...99, using: &random)) }
        let streams = (0..<3).map { _ in AsyncStream.makeStream(of: Int.self) }
        var iterator = merge(streams[0].stream, streams[1].stream, streams[2].stream).makeAsyncIterator()
        var received: [Int] = []
        for (base, value) in events {
            streams[base].continuation.yield(value)
            if let value = await iterator.next() { received.append(value) }
        }
        for stream in streams { stream.continuation.finish() }
        #expect(await iterator.next() == nil)
        #expect(received == events.map(\.1))
    }
}

/// The merge state machine on its own, driven with string tokens for continuations.
@Suite struct MergeStateMachineTests {
    typealias Machine = MergeStateMachine<Int, String, String>

    // Read from the package's MergeStateMachine: after a failure the buffered elements come
    // first, then the error, then nil.
    @Test("a failure is delivered after the buffered elements, then the machine is finished")
    func failureAfterBuffer() throws {
        var machine = Machine(baseCount: 2)
        #expect(machine.next("d1").startTask)
        #expect(machine.upstreamWaiting(0, "u0").resumeUpstreams == ["u0"])
        #expect(machine.upstreamWaiting(1, "u1").resumeUpstreams == ["u1"])
        let first = machine.produced(0, 10)
        #expect(first.downstream?.0 == "d1")
        #expect(try first.downstream?.1.get() == 10)
        #expect(machine.produced(1, 11).downstream == nil)
        #expect(machine.upstreamWaiting(0, "u0").resumeUpstreams.isEmpty)
        let failure = machine.upstreamThrew(1, TestFailure())
        #expect(failure.stopUpstreams == ["u0"])
        #expect(failure.cancelTask)
        #expect(try machine.next("d2").downstream?.1.get() == 11)
        #expect(throws: TestFailure()) { try machine.next("d3").downstream?.1.get() }
        #expect(try machine.next("d4").downstream?.1.get() == nil)
    }

    // The Merge guide: the merged sequence ends when all bases have ended.
    @Test("only after every base finished does the consumer get nil")
    func finishAfterAll() throws {
        var machine = Machine(baseCount: 2)
        _ = machine.next("d1")
        #expect(machine.upstreamFinished(0).downstream == nil)
        let last = machine.upstreamFinished(1)
        #expect(last.downstream?.0 == "d1")
        #expect(try last.downstream?.1.get() == nil)
    }

    // Read from the package's MergeStateMachine.cancelled(): the consumer gets nil, the task is cancelled.
    @Test("cancel resumes the waiting consumer with nil and stops waiting bases")
    func cancel() throws {
        var machine = Machine(baseCount: 2)
        _ = machine.next("d1")
        _ = machine.produced(0, 1)
        _ = machine.upstreamWaiting(0, "u0")
        _ = machine.next("d2")
        let effects = machine.cancelled()
        #expect(effects.cancelTask)
        #expect(effects.downstream?.0 == "d2")
        #expect(machine.upstreamWaiting(1, "u1").stopUpstreams == ["u1"])
        #expect(machine.produced(1, 5).downstream == nil)
        #expect(try machine.next("d3").downstream?.1.get() == nil)
    }
}
