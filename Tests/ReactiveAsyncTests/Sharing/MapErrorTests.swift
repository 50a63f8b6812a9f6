import Testing

@testable import ReactiveAsync

private enum Wrapped: Error, Equatable {
    case wrapped(Int)
}

@Suite(.hangLimit) struct MapErrorTests {
    @Test("elements pass through unchanged and the base's failure is thrown as the mapped error")
    func mapsFailure() async {
        // The package's MapError guide: "Converts any failure into a new error."
        var iterator = ScriptedSequence([1, 2], thenFail: TestError(tag: 4)).mapError { Wrapped.wrapped($0.tag) }.makeAsyncIterator()
        var elements: [Int] = []
        do throws(Wrapped) {
            while let value = try await iterator.next() { elements.append(value) }
            Issue.record("expected a failure")
        } catch {
            // `error` is typed `Wrapped` here: the typed throws of 1.1's mapError.
            #expect(error == .wrapped(4))
        }
        #expect(elements == [1, 2])
    }

    @Test("a base that finishes: the same elements, no error")
    func baseFinishes() async {
        let (elements, failure) = await collect(ScriptedSequence([1, 2, 3]).mapError { Wrapped.wrapped($0.tag) })
        #expect(elements == [1, 2, 3])
        #expect(failure == nil)
    }

    @Test("empty input: empty output")
    func empty() async {
        let (elements, failure) = await collect(ScriptedSequence([Int]()).mapError { Wrapped.wrapped($0.tag) })
        #expect(elements.isEmpty)
        #expect(failure == nil)
    }

    @Test("cancelling the consuming task ends the base's iteration")
    func cancellation() async {
        let probe = IterationProbe()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        let mapped = InstrumentedSequence(stream, probe: probe).mapError { _ in Wrapped.wrapped(0) }
        let consumer = Task { try? await collectAll(mapped) }
        #expect(await eventually { probe.iteratingNow == 1 })
        consumer.cancel()
        _ = await consumer.value
        #expect(await probe.settled())
        continuation.finish()
    }

    @Test("property: the output equals the input and the model's mapped failure", arguments: 0..<20)
    func property(seed: Int) async {
        var random = SplitMix(seed: UInt64(seed))
        let input = (0..<Int(random.next() % 20)).map { _ in Int(random.next() % 100) }
        let tag: Int? = random.next() % 2 == 0 ? Int(random.next() % 10) : nil
        let (elements, failure) = await collect(
            ScriptedSequence(input, thenFail: tag.map { TestError(tag: $0) }).mapError { Wrapped.wrapped($0.tag) })
        #expect(elements == input)
        #expect(failure as? Wrapped == tag.map { Wrapped.wrapped($0) })
    }
}

private func collectAll<S: AsyncSequence>(_ sequence: S) async throws -> Int {
    var count = 0
    for try await _ in sequence { count += 1 }
    return count
}
