import ReactiveAsync
import ReactiveAsyncTesting
import Testing

@Suite struct ThrottleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var input: String
        var steps: Int
        var latest: Bool
        var output: String
        var testDescription: String { "\(input) every \(steps) latest: \(latest) → \(output)" }
    }

    // The package's TestThrottle cases (its `[k|]` is our `(k|)`, its `^` our `#`; nothing may follow
    // `#` in our notation, so its `abcdef^hijk|` is `abcdef#`).
    static let packageCases: [Example] = [
        Example(input: "abcdefghijk|", steps: 0, latest: true, output: "abcdefghijk|"),
        Example(input: "abcdefghijk|", steps: 0, latest: false, output: "abcdefghijk|"),
        Example(input: "abcdefghijk|", steps: 1, latest: true, output: "abcdefghijk|"),
        Example(input: "abcdefghijk|", steps: 1, latest: false, output: "abcdefghijk|"),
        Example(input: "abcdefghijk|", steps: 2, latest: true, output: "a-c-e-g-i-k|"),
        Example(input: "abcdefghijk|", steps: 2, latest: false, output: "a-b-d-f-h-j|"),
        Example(input: "abcdefghijk|", steps: 3, latest: true, output: "a--d--g--j--(k|)"),
        Example(input: "abcdefghijk|", steps: 3, latest: false, output: "a--b--e--h--(k|)"),
        Example(input: "abcdef#", steps: 2, latest: true, output: "a-c-e-#"),
        Example(input: "abcdef#", steps: 2, latest: false, output: "a-b-d-#"),
        Example(input: "-a-b-c-d-e-f-g-h-i-j-k-|", steps: 1, latest: true, output: "-a-b-c-d-e-f-g-h-i-j-k-|"),
        Example(input: "-a-b-c-d-e-f-g-h-i-j-k-|", steps: 2, latest: true, output: "-a-b-c-d-e-f-g-h-i-j-k-|"),
        Example(input: "--a--b--c--d--e--f--g|", steps: 2, latest: true, output: "--a--b--c--d--e--f--g|"),
        Example(input: "-a-b-c-d-e-f-g-h-i-j-k-|", steps: 3, latest: true, output: "-a---c---e---g---i---k-|"),
        Example(input: "abcdefghijkl|", steps: 3, latest: false, output: "a--b--e--h--(k|)"),
        Example(input: "abcdefghijkl|", steps: 3, latest: true, output: "a--d--g--j--(l|)"),
    ]

    @Test("the package's examples", arguments: packageCases)
    func packageExamples(example: Example) {
        expectMarbles {
            example.input
            $0.inputs[0]._throttle(for: .steps(example.steps), clock: $0.clock, latest: example.latest)
            example.output
        }
    }

    // Guides/Throttle.md: the reducing form folds an interval's elements into one.
    @Test("the reducing form folds each interval's elements")
    func reducing() {
        expectMarbles {
            "abcdefg|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock) { (joined: String?, element) in (joined ?? "") + element }
            "a--'bcd'--'efg'|"
        }
    }

    @Test("the guide's name throttle is the same operator")
    func guideName() {
        expectMarbles {
            "abcdefghijk|"
            $0.inputs[0].throttle(for: .steps(2), clock: $0.clock)
            "a-c-e-g-i-k|"
        }
    }

    @Test("an empty base finishes or fails when it does", arguments: ["|", "---|", "--#"])
    func empty(diagram: String) {
        expectMarbles {
            diagram
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
            diagram
        }
    }

    // Better than the package: its trailing `try? await clock.sleep` returns the pending reduction
    // even when the sleep was cancelled (source, AsyncThrottleSequence.swift). Here nothing goes out
    // after cancellation.
    @Test("cancelling the consumer delivers nothing more, not even a pending reduction")
    func cancellation() {
        expectMarbles(cancelAt: 4) {
            "abcde-----f"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
            "a--d"
        }
        let pendingWhenCancelled = validate(cancelAt: 5) {
            "a-b---"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
            "a"
        }
        #expect(pendingWhenCancelled.passed, "\(pendingWhenCancelled)")
    }

    // The model, from Guides/Throttle.md and the source: the first element goes out at once; later
    // ones go out when they arrive at least `interval` after the last emission, carrying the
    // interval's reduction; at the finish a pending reduction goes out `interval` after the last
    // emission (or at the finish if that is later), with the finish; a failure drops it.
    @Test("generated inputs match a synchronous model", arguments: 0..<60)
    func matchesModel(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let input = GeneratedDiagram.random(using: &generator)
        let interval = Int.random(in: 0...4, using: &generator)
        let latest = Bool.random(using: &generator)
        var expected: [(step: Int, event: MarbleNotation.Event)] = []
        var last: Int?
        var pending: String?
        for (step, value) in input.values {
            let reduction = latest ? value : (pending ?? value)
            if last == nil || step - last! >= interval {
                expected.append((step, .value(reduction)))
                last = step
                pending = nil
            } else {
                pending = reduction
            }
        }
        if let end = input.end {
            if !end.fails, let pending, let last {
                let at = max(end.step, last + interval)
                expected.append((at, .value(pending)))
                expected.append((at, .finished))
            } else {
                expected.append((end.step, end.fails ? .failed : .finished))
            }
        }
        let model = draw(expected)
        let result = validate {
            input.marbles
            $0.inputs[0]._throttle(for: .steps(interval), clock: $0.clock, latest: latest)
            model
        }
        #expect(result.passed, "seed \(seed), interval \(interval), latest \(latest):\n\(result)")
    }

    @Test("the same run gives the same trace 200 times")
    func deterministic() {
        var traces = Set<[String]>()
        for _ in 0..<200 {
            let result = validate {
                "abc-d-efgh--i|"
                $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
                "a--d--g---i-|"
            }
            traces.insert(result.trace)
        }
        #expect(traces.count == 1)
    }
}
