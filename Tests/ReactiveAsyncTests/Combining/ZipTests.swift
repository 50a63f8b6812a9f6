import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct ZipTests {
    // The Zip guide's table: a tuple goes out only once each base has produced its next element.
    @Test("zip pairs the bases' elements in step")
    func pairsInStep() async {
        let (apple, appleInput) = AsyncStream.makeStream(of: Double.self)
        let (nasdaq, nasdaqInput) = AsyncStream.makeStream(of: Double.self)
        var iterator = zip(apple, nasdaq).makeAsyncIterator()
        appleInput.yield(173.91)
        nasdaqInput.yield(14236.78)
        let first = await iterator.next()
        #expect(first?.0 == 173.91 && first?.1 == 14236.78)
        nasdaqInput.yield(14218.34)
        appleInput.yield(173.00)
        let second = await iterator.next()
        #expect(second?.0 == 173.00 && second?.1 == 14218.34)
    }

    // The Zip guide: "If any of the base iterations terminates by returning nil ... returns nil".
    @Test("zip finishes when its shortest base does")
    func shortestBaseEnds() async {
        let pairs = await zip([1, 2, 3].async, ["a", "b"].async).collect()
        #expect(pairs.map(\.0) == [1, 2])
        #expect(pairs.map(\.1) == ["a", "b"])
    }

    // The Zip guide's three-base form; the shortest base decides the length.
    @Test("zip of three bases makes triples")
    func threeBases() async {
        let triples = await zip([1, 2].async, ["a", "b", "c"].async, [true, false].async).collect()
        #expect(triples.map(\.0) == [1, 2])
        #expect(triples.map(\.1) == ["a", "b"])
        #expect(triples.map(\.2) == [true, false])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("zip with an empty base is empty")
    func emptyBase() async {
        let pairs = await zip([Int]().async, [1, 2].async).collect()
        #expect(pairs.isEmpty)
    }

    // The Zip guide: a base's error is rethrown and the other iterations are cancelled.
    @Test("zip rethrows a base's failure, cancels the other base and ends")
    func failure() async throws {
        let counter = IterationCounter()
        let (quiet, _) = AsyncStream.makeStream(of: Int.self)
        let (failing, failingInput) = AsyncThrowingStream.makeStream(of: Int.self)
        var iterator = zip(quiet.tracked(by: counter), failing).makeAsyncIterator()
        failingInput.finish(throwing: TestFailure(id: 3))
        await #expect(throws: TestFailure(id: 3)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        await waitUntil { counter.live == 0 }
    }

    // Issue 42: cancelling the consumer ends every base iteration and operator task.
    @Test("cancelling the consumer ends both bases' iterations and the operator's task")
    func cancellation() async {
        // After the first tuple only the first base answers (2): the consumer waits in next().
        let outcome = await tuplesUntilCancelled(feedingFirst: [2]) { first, second, delivered in
            var count = 0
            for await _ in zip(first, second) {
                count += 1
                delivered()
            }
            return count
        }
        #expect(outcome.tuples == 1)
        #expect(outcome.iterationsMade == 2)
    }

    // The model is the standard library's zip over arrays.
    @Test("zip matches Swift.zip on generated inputs", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let left = (0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: 0...9, using: &random) }
        let right = (0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: 0...9, using: &random) }
        let pairs = await zip(left.async, right.async).collect()
        let model = Array(Swift.zip(left, right))
        #expect(pairs.map(\.0) == model.map(\.0))
        #expect(pairs.map(\.1) == model.map(\.1))
    }
}

@Suite struct ZipStateMachineTests {
    typealias Machine = ZipStateMachine<String, String>

    // The Zip guide: "Each iteration ... will await for all base iterators to produce a value", concurrently.
    @Test("a base pulls once per demand and the tuple goes out when every slot is full")
    func oneRound() throws {
        var machine = Machine(baseCount: 2)
        #expect(machine.next("d1").startTask)
        #expect(machine.upstreamWaiting(0, "u0").resumeUpstreams == ["u0"])
        #expect(machine.produced(0, 1).downstream == nil)
        // Base 0 already delivered for this round: it waits for the next demand.
        #expect(machine.upstreamWaiting(0, "u0").resumeUpstreams.isEmpty)
        #expect(machine.upstreamWaiting(1, "u1").resumeUpstreams == ["u1"])
        let out = machine.produced(1, "a")
        let values = try #require(try out.downstream?.1.get())
        #expect(values[0] as? Int == 1 && values[1] as? String == "a")
        #expect(machine.upstreamWaiting(1, "u1").resumeUpstreams.isEmpty)
        #expect(machine.next("d2").resumeUpstreams == ["u0", "u1"])
    }

    // The Zip guide: a base returning nil makes the iteration "immediately considered unsatisfiable" and cancels the others.
    @Test("a finishing base ends the round at once and stops the others")
    func finishEndsRound() throws {
        var machine = Machine(baseCount: 2)
        _ = machine.next("d1")
        _ = machine.produced(0, 1)
        _ = machine.upstreamWaiting(0, "u0")
        let effects = machine.upstreamFinished(1)
        #expect(effects.stopUpstreams == ["u0"])
        #expect(effects.cancelTask)
        #expect(try effects.downstream?.1.get() == nil)
        #expect(try machine.next("d2").downstream?.1.get() == nil)
    }
}
