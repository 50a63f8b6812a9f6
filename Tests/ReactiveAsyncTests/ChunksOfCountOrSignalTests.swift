import ReactiveAsync
import ReactiveAsyncTesting
import Testing

@Sendable private func concatenated(_ chunk: [String]) -> String { chunk.joined() }
@Sendable private func sum(_ chunk: [String]) -> String { "\(chunk.reduce(0) { $0 + Int($1)! })" }

/// `chunks(ofCount:or:)` when there is a count, else `chunked(by:)`: the same type either way.
private func chunking(_ input: MarbleInput, _ signal: MarbleInput, count: Int?) -> AsyncChunksOfCountOrSignalSequence<MarbleInput, [String], MarbleInput> {
    count.map { input.chunks(ofCount: $0, or: signal) } ?? input.chunked(by: signal)
}

/// The same with a timer of `every` steps.
private func chunking(
    _ input: MarbleInput, every: Int, clock: ManualClock, count: Int?
) -> AsyncChunksOfCountOrSignalSequence<MarbleInput, [String], AsyncTimerSequence<ManualClock>> {
    let timer = AsyncTimerSequence.repeating(every: .steps(every), clock: clock)
    return count.map { input.chunks(ofCount: $0, or: timer) } ?? input.chunked(by: timer)
}

@Suite struct ChunksOfCountOrSignalTests {
    struct SignalCase: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var signal: String
        var count: Int?
        var summed = false
        var output: String
        var testDescription: String { name }
    }

    // The package's TestChunk signal cases (its `[3|]` is our `(3|)`, its `^` our `#`).
    static let signalCases: [SignalCase] = [
        SignalCase(
            name: "equal chunks", input: "ABC-    DEF-    GHI-     |", signal: "---X    ---X    ---X    |", output: "---'ABC'---'DEF'---'GHI'|"),
        SignalCase(name: "unequal chunks", input: "AB-   A-ABCDEFGH-         |", signal: "--X   -X--------X         |", output: "--'AB'-A--------'ABCDEFGH'|"),
        SignalCase(name: "a signal with an empty chunk sends nothing", input: "--1--|", signal: "XX-XX|", output: "---1-|"),
        SignalCase(name: "a failure drops the partial chunk", input: "AB#", signal: "---X|", output: "--#"),
        SignalCase(name: "the trailing chunk goes out at the finish", input: "111-111|", signal: "---X---|", summed: true, output: "---3---(3|)"),
        SignalCase(
            name: "the signal prevails before the count", input: "AB-   A-ABCDEFGH-         |", signal: "--X   -X--------X         |", count: 42,
            output: "--'AB'-A--------'ABCDEFGH'|"),
        SignalCase(name: "the count prevails before the signal", input: "AB   --A-B   -|", signal: "--   X----   X|", count: 2, output: "-'AB'----'AB'-|"),
        SignalCase(
            name: "the count restarts after a count", input: "ABCDE      -ABCDE      |", signal: "-----      ------      |", count: 5,
            output: "----'ABCDE'-----'ABCDE'|"),
        SignalCase(
            name: "the count restarts after a signal", input: "AB-   ABCDE      |", signal: "--X   -----      |", count: 5, output: "--'AB'----'ABCDE'|"),
        SignalCase(name: "a failure with a count", input: "ABC#", signal: "----X|", count: 5, output: "---#"),
    ]

    @Test("the package's signal examples", arguments: signalCases)
    func signalExamples(example: SignalCase) {
        let transform = example.summed ? sum : concatenated
        expectMarbles {
            example.input
            example.signal
            chunking($0.inputs[0], $0.inputs[1], count: example.count).map(transform)
            example.output
        }
    }

    struct TimerCase: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var every: Int
        var count: Int?
        var summed = false
        var output: String
        var testDescription: String { name }
    }

    // The package's TestChunk time cases.
    static let timerCases: [TimerCase] = [
        TimerCase(name: "equal chunks", input: "ABC-    DEF-    GHI-     |", every: 4, output: "---'ABC'---'DEF'---'GHI'|"),
        TimerCase(name: "unequal chunks", input: "AB------    A------- ABCDEFG-         |", every: 8, output: "-------'AB' -------A -------'ABCDEFG'|"),
        TimerCase(name: "empty chunks send nothing", input: "-- 1- --|", every: 2, output: "-- -1 --|"),
        TimerCase(name: "a failure drops the partial chunk", input: "AB#", every: 5, output: "--#"),
        TimerCase(name: "the trailing chunk goes out at the finish", input: "111-111|", every: 4, summed: true, output: "---3---(3|)"),
        TimerCase(
            name: "time prevails before the count", input: "AB------    A------- ABCDEFG-         |", every: 8, count: 42,
            output: "-------'AB' -------A -------'ABCDEFG'|"),
        TimerCase(name: "the count prevails before time", input: "AB   --A-B   -|", every: 8, count: 2, output: "-'AB'----'AB'-|"),
        TimerCase(name: "the count restarts after a count", input: "ABCDE      --- ABCDE      |", every: 8, count: 5, output: "----'ABCDE'--- ----'ABCDE'|"),
        TimerCase(name: "the count restarts after a tick", input: "AB------    ABCDE      |", every: 8, count: 5, output: "-------'AB' ----'ABCDE'|"),
        TimerCase(name: "a failure with a count", input: "ABC#", every: 8, count: 5, output: "---#"),
    ]

    @Test("the package's timer examples", arguments: timerCases)
    func timerExamples(example: TimerCase) {
        let transform = example.summed ? sum : concatenated
        expectMarbles {
            example.input
            chunking($0.inputs[0], every: example.every, clock: $0.clock, count: example.count).map(transform)
            example.output
        }
    }

    @Test("chunks can be collected into another collection type")
    func into() {
        expectMarbles {
            "ABC-DE-|"
            "---X--X|"
            $0.inputs[0].chunked(by: $0.inputs[1], into: ContiguousArray<String>.self).map { $0.joined() }
            "---'ABC'--'DE'|"
        }
    }

    @Test("an empty base finishes at once; a failing signal fails the sequence")
    func emptyAndSignalFailure() {
        let empty = validate {
            "--|"
            "-X-X|"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatenated)
            "--|"
        }
        #expect(empty.passed, "\(empty)")
        let signalFails = validate {
            "AB----|"
            "---#"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatenated)
            "---#"
        }
        #expect(signalFails.passed, "\(signalFails)")
    }

    // Better than the package: its timer-signalled chunks return the partial chunk when cancelled
    // (its merge returns nil and the loop returns what it collected; issue 42 reports it). Here a
    // cancelled consumer gets nothing more, and the operator's task, the base's iteration and the
    // timer end (`passed` checks liveTasks and iteratingInputs).
    @Test("cancelling the consumer sends no partial chunk and ends every task and iteration")
    func cancellation() {
        let withTimer = validate(cancelAt: 5) {
            "ABC-DE--"
            $0.inputs[0].chunked(by: .repeating(every: .steps(4), clock: $0.clock)).map(concatenated)
            "---'ABC'"
        }
        #expect(withTimer.passed, "\(withTimer)")
        let withSignal = validate(cancelAt: 5) {
            "AB-C---|"
            "--X-----"
            $0.inputs[0].chunks(ofCount: 3, or: $0.inputs[1]).map(concatenated)
            "--'AB'"
        }
        #expect(withSignal.passed, "\(withSignal)")
    }

    // The model, from Guides/Chunked.md: elements gather; a chunk goes out when it reaches the count
    // or at a signal step while not empty; at the finish the partial chunk goes out with it; a
    // failure drops it.
    @Test("generated inputs and signals match a synchronous model", arguments: 0..<60)
    func matchesModel(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let input = GeneratedDiagram.random(using: &generator, length: 14)
        var signal = GeneratedDiagram.random(using: &generator, length: 18)
        // No signal at a step where the base has an event: which comes first at a tie depends on
        // which input went to sleep first (the package's examples above pin such ties).
        let baseSteps = Set(input.values.map(\.step) + [input.end?.step].compactMap { $0 })
        signal.values = signal.values.filter { !baseSteps.contains($0.step) }.map { ($0.step, "X") }
        if signal.end?.fails == true { signal.end = nil }
        let count: Int? = Bool.random(using: &generator) ? Int.random(in: 1...4, using: &generator) : nil
        let signalSteps = Set(signal.values.map(\.step))
        var expected: [(step: Int, event: MarbleNotation.Event)] = []
        var chunk: [String] = []
        let lastStep = input.end?.step ?? 40
        for step in 0..<lastStep {
            if let value = input.values.first(where: { $0.step == step })?.value {
                chunk.append(value)
                if chunk.count == count {
                    expected.append((step, .value(chunk.joined())))
                    chunk = []
                }
            }
            if signalSteps.contains(step), !chunk.isEmpty {
                expected.append((step, .value(chunk.joined())))
                chunk = []
            }
        }
        if let end = input.end {
            if end.fails {
                expected.append((end.step, .failed))
            } else {
                if !chunk.isEmpty { expected.append((end.step, .value(chunk.joined()))) }
                expected.append((end.step, .finished))
            }
        }
        let model = draw(expected)
        let result = validate {
            input.marbles
            signal.marbles
            chunking($0.inputs[0], $0.inputs[1], count: count).map(concatenated)
            model
        }
        #expect(result.passed, "seed \(seed), count \(String(describing: count)), signal \(signal.marbles):\n\(result)")
    }

    @Test("the same run gives the same trace 200 times")
    func deterministic() {
        var traces = Set<[String]>()
        for _ in 0..<200 {
            let result = validate {
                "AB-C--DEF-G--|"
                $0.inputs[0].chunks(ofCount: 3, or: .repeating(every: .steps(3), clock: $0.clock)).map(concatenated)
                "--'AB'--C---'DEF'G-|"
            }
            traces.insert(result.trace)
        }
        #expect(traces.count == 1)
    }
}
