import Testing

@testable import ReactiveAsync

/// Sides joining, iterating and being cancelled from another task while the base produces.
@Suite(.timeLimit(.minutes(1))) struct ShareStressTests {
    @Test("four sides, two cancelled from another task at varying moments: the others get every element, no base left")
    func sidesCancelledConcurrently() async {
        for round in 0..<40 {
            let probe = IterationProbe()
            do {
                let shared = InstrumentedSequence(ScriptedSequence(Array(0..<200)), probe: probe).share(
                    bufferingPolicy: round % 2 == 0 ? .bounded(2) : .unbounded)
                var iterators = (0..<4).map { _ in shared.makeAsyncIterator() }
                let tasks = (0..<4).map { _ in
                    // Made before any side starts (no replay), moved into one task only.
                    nonisolated(unsafe) var iterator = iterators.removeFirst()
                    return Task {
                        var got: [Int] = []
                        while let value = try? await iterator.next() { got.append(value) }
                        return got
                    }
                }
                let canceller = Task {
                    for _ in 0..<(round % 6) { await Task.yield() }
                    tasks[2].cancel()
                    tasks[3].cancel()
                }
                await canceller.value
                #expect(await tasks[0].value == Array(0..<200), "round \(round)")
                #expect(await tasks[1].value == Array(0..<200), "round \(round)")
                for task in tasks[2...] {
                    let got = await task.value
                    #expect(got == Array(0..<got.count), "round \(round): a cancelled side saw a gap")
                }
            }
            #expect(await probe.settled(), "round \(round)")
        }
    }
}
