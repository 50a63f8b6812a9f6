import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct CombineLatestTests {
    // The CombineLatest guide's table, one row at a time.
    @Test("combineLatest waits for a value from each base, then combines every new value with the latest of the other")
    func guideTable() async {
        let (apple, appleInput) = AsyncStream.makeStream(of: Double.self)
        let (nasdaq, nasdaqInput) = AsyncStream.makeStream(of: Double.self)
        var iterator = combineLatest(apple, nasdaq).makeAsyncIterator()
        appleInput.yield(173.91)
        nasdaqInput.yield(14236.78)
        let first = await iterator.next()
        #expect(first?.0 == 173.91 && first?.1 == 14236.78)
        nasdaqInput.yield(14218.34)
        let second = await iterator.next()
        #expect(second?.0 == 173.91 && second?.1 == 14218.34)
        appleInput.yield(173.00)
        let third = await iterator.next()
        #expect(third?.0 == 173.00 && third?.1 == 14218.34)
    }

    // The CombineLatest guide: after the first tuple, the sequence ends only when all bases have.
    @Test("combineLatest goes on after one base finishes and ends when all have")
    func endsWhenAllEnd() async {
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
        var iterator = combineLatest(first, second).makeAsyncIterator()
        firstInput.yield(1)
        firstInput.finish()
        secondInput.yield(2)
        let a = await iterator.next()
        #expect(a?.0 == 1 && a?.1 == 2)
        secondInput.yield(3)
        let b = await iterator.next()
        #expect(b?.0 == 1 && b?.1 == 3)
        secondInput.finish()
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    // The CombineLatest guide: a base that ends before its first element ends the sequence at once.
    @Test("combineLatest ends at once when a base finishes without a value")
    func emptyBaseEnds() async {
        let counter = IterationCounter()
        let (other, _) = AsyncStream.makeStream(of: Int.self)
        let values = await combineLatest([Int]().async, other.tracked(by: counter)).collect()
        #expect(values.isEmpty)
        await waitUntil { counter.live == 0 }
    }

    // The CombineLatest guide's three-base form; a finishing base with a value does not end it, all finishing does.
    @Test("combineLatest of three bases")
    func threeBases() async {
        let (a, aInput) = AsyncStream.makeStream(of: Int.self)
        var iterator = combineLatest(a, ["x"].async, [true].async).makeAsyncIterator()
        aInput.yield(1)
        let first = await iterator.next()
        #expect(first?.0 == 1 && first?.1 == "x" && first?.2 == true)
        aInput.yield(2)
        let second = await iterator.next()
        #expect(second?.0 == 2 && second?.1 == "x" && second?.2 == true)
        aInput.finish()
        #expect(await iterator.next() == nil)
    }

    // The CombineLatest guide: an error is "immediately thrown to the consuming iteration".
    @Test("combineLatest rethrows a base's failure and ends")
    func failure() async throws {
        let counter = IterationCounter()
        let (quiet, quietInput) = AsyncStream.makeStream(of: Int.self)
        let (failing, failingInput) = AsyncThrowingStream.makeStream(of: Int.self)
        var iterator = combineLatest(quiet.tracked(by: counter), failing).makeAsyncIterator()
        quietInput.yield(1)
        failingInput.yield(2)
        let first = try await iterator.next()
        #expect(first?.0 == 1 && first?.1 == 2)
        failingInput.finish(throwing: TestFailure(id: 5))
        await #expect(throws: TestFailure(id: 5)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        await waitUntil { counter.live == 0 }
    }

    // Issue 42: cancelling the consumer ends every base iteration and operator task.
    @Test("cancelling the consumer ends both bases' iterations and the operator's task")
    func cancellation() async {
        let outcome = await tuplesUntilCancelled(feedingFirst: []) { first, second, delivered in
            var count = 0
            for await _ in combineLatest(first, second) {
                count += 1
                delivered()
            }
            return count
        }
        #expect(outcome.tuples >= 1)
        #expect(outcome.iterationsMade == 2)
    }

    // The model: fed one element at a time after both bases have a value, each element makes
    // one tuple of the latest values.
    @Test("combineLatest matches a synchronous model on generated inputs", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let events = (0..<Int.random(in: 0...40, using: &random)).map { _ in (Int.random(in: 0...1, using: &random), Int.random(in: 0...99, using: &random)) }
        let streams = (0..<2).map { _ in AsyncStream.makeStream(of: Int.self) }
        var iterator = combineLatest(streams[0].stream, streams[1].stream).makeAsyncIterator()
        streams[0].continuation.yield(-1)
        streams[1].continuation.yield(-2)
        var latest = [-1, -2]
        var model: [[Int]] = [latest]
        var received: [[Int]] = []
        if let first = await iterator.next() { received.append([first.0, first.1]) }
        for (base, value) in events {
            latest[base] = value
            model.append(latest)
            streams[base].continuation.yield(value)
            if let tuple = await iterator.next() { received.append([tuple.0, tuple.1]) }
        }
        for stream in streams { stream.continuation.finish() }
        #expect(await iterator.next() == nil)
        #expect(received == model)
    }
}

@Suite struct CombineLatestStateMachineTests {
    typealias Machine = CombineLatestStateMachine<String, String>

    // Pinned here (the guide is silent): tuples completed while the consumer is away are kept, oldest first.
    @Test("tuples made while nobody waits are buffered in order")
    func buffersTuples() throws {
        var machine = Machine(baseCount: 2)
        _ = machine.next("d1")
        _ = machine.produced(0, 1)
        let first = machine.produced(1, 2)
        #expect(first.downstream?.0 == "d1")
        _ = machine.produced(0, 3)
        _ = machine.produced(1, 4)
        let second = try #require(try machine.next("d2").downstream?.1.get())
        #expect(second[0] as? Int == 3 && second[1] as? Int == 2)
        let third = try #require(try machine.next("d3").downstream?.1.get())
        #expect(third[0] as? Int == 3 && third[1] as? Int == 4)
    }

    // The CombineLatest guide: "the thrown error is immediately thrown to the consuming iteration".
    @Test("a failure drops buffered tuples and is thrown at the next demand")
    func failureDropsBuffer() {
        var machine = Machine(baseCount: 2)
        _ = machine.next("d1")
        _ = machine.produced(0, 1)
        _ = machine.produced(1, 2)
        _ = machine.produced(0, 3)
        #expect(machine.upstreamThrew(1, TestFailure()).cancelTask)
        #expect(throws: TestFailure()) { try machine.next("d2").downstream?.1.get() }
    }

    // The CombineLatest guide: a base that ends before its first element makes the sequence
    // unsatisfiable; after every base has produced, only all of them ending ends it.
    @Test("a base ending without a value ends everything; with a value it does not")
    func finishRules() throws {
        var valueless = Machine(baseCount: 2)
        _ = valueless.next("d1")
        _ = valueless.upstreamWaiting(1, "u1")
        let ended = valueless.upstreamFinished(0)
        #expect(ended.cancelTask)
        #expect(ended.downstream?.0 == "d1")
        #expect(try ended.downstream?.1.get() == nil)

        var started = Machine(baseCount: 2)
        _ = started.next("d1")
        _ = started.produced(0, 1)
        #expect(started.upstreamFinished(0).downstream == nil)
        let tuple = try #require(try started.produced(1, 2).downstream?.1.get())
        #expect(tuple[0] as? Int == 1 && tuple[1] as? Int == 2)
        _ = started.next("d2")
        let last = started.upstreamFinished(1)
        #expect(last.downstream?.0 == "d2")
        #expect(try last.downstream?.1.get() == nil)
    }
}
