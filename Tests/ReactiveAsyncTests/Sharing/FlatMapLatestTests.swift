import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct FlatMapLatestTests {
    @Test("the guide's behaviour: a new base element cancels the previous inner sequence; only the latest's elements follow")
    func switchesToLatest() async throws {
        // The package's FlatMapLatest guide: "When a new element is produced by the base sequence, iteration on the current inner sequence is cancelled".
        let queries = AsyncChannel<Int>()
        let firstProbe = IterationProbe()
        let (second, secondContinuation) = AsyncStream.makeStream(of: Int.self)
        let results = queries.flatMapLatest { query in
            query == 1 ? InstrumentedSequence(endlessStream(), probe: firstProbe) : InstrumentedSequence(second, probe: IterationProbe())
        }
        let iterator = results.makeAsyncIterator()
        let consumer = Task { () -> [Int] in
            var got: [Int] = []
            while let value = try await iterator.next() { got.append(value) }
            return got
        }
        await queries.send(1)
        #expect(await eventually { firstProbe.iteratingNow == 1 })
        await queries.send(2)
        #expect(await firstProbe.settled(), "the first inner sequence is still iterated")
        secondContinuation.yield(20)
        secondContinuation.yield(21)
        secondContinuation.finish()
        queries.finish()
        #expect(try await consumer.value == [20, 21])
    }

    @Test("it ends when the base and the last inner sequence have finished")
    func finishes() async throws {
        let (elements, failure) = await collect(ScriptedSequence([3]).flatMapLatest { ScriptedSequence([$0, $0 + 1]) })
        #expect(elements == [3, 4])
        #expect(failure == nil)
    }

    @Test("empty input: nothing, and the end")
    func empty() async {
        let (elements, failure) = await collect(ScriptedSequence([Int]()).flatMapLatest { ScriptedSequence([$0]) })
        #expect(elements.isEmpty)
        #expect(failure == nil)
    }

    @Test("a failure of the base or of the inner sequence is thrown", arguments: [true, false])
    func failure(inBase: Bool) async {
        let base = ScriptedSequence([1], thenFail: inBase ? TestError(tag: 1) : nil)
        let sequence = base.flatMapLatest { value in
            ScriptedSequence(inBase ? [Int]() : [value], thenFail: inBase ? nil : TestError(tag: 2))
        }
        let (_, failure) = await collect(sequence)
        #expect(failure as? TestError == TestError(tag: inBase ? 1 : 2))
    }

    @Test("cancelling the consuming task ends the base's and the inner sequence's iteration")
    func cancellation() async {
        let baseProbe = IterationProbe()
        let innerProbe = IterationProbe()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        let sequence = InstrumentedSequence(stream, probe: baseProbe).flatMapLatest { _ in
            InstrumentedSequence(endlessStream(), probe: innerProbe)
        }
        let consumer = Task { _ = await collect(sequence) }
        #expect(await eventually { innerProbe.iteratingNow == 1 && baseProbe.iteratingNow == 1 })
        consumer.cancel()
        await consumer.value
        #expect(await baseProbe.settled())
        #expect(await innerProbe.settled())
        continuation.finish()
    }

    @Test("property: generations never go back and the last inner sequence arrives whole", arguments: 0..<20)
    func property(seed: Int) async {
        var random = SplitMix(seed: UInt64(seed))
        let input = (1...Int(random.next() % 6 + 1)).map { $0 }
        let innerLength = Int(random.next() % 5) + 1
        let (elements, failure) = await collect(
            ScriptedSequence(input).flatMapLatest { x in ScriptedSequence((0..<innerLength).map { x * 100 + $0 }) })
        #expect(failure == nil)
        // The model: elements come from inner sequences in base order, each inner's in its order,
        // and the last base element's inner sequence is complete at the end.
        #expect(elements == elements.sorted(), "seed \(seed)")
        let last = input.last! * 100
        #expect(Array(elements.suffix(innerLength)) == (0..<innerLength).map { last + $0 }, "seed \(seed)")
    }
}
