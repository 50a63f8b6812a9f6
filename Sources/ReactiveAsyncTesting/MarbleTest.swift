import ReactiveAsync
import Synchronization

/// What a marble test's operator is built from: its inputs and the clock they run on (`$0` in
/// ``validate(cancelAt:_:)``'s closure).
public struct MarbleTest: Sendable {
    /// One step of a diagram on ``clock``: one second.
    public static let step = Duration.seconds(1)

    /// When step `index` of a diagram happens: `index + 1` steps after the clock's start, as in the
    /// package's validation tests (so a timer of `.steps(4)` started at the start fires at step 3).
    ///
    /// - Parameter index: The step's index in the diagram.
    /// - Returns: The instant on ``clock``.
    public static func instant(ofStep index: Int) -> ManualClock.Instant {
        .zero.advanced(by: step * (index + 1))
    }

    /// The diagram step an instant falls in (0 for anything before the first step).
    ///
    /// - Parameter instant: An instant on ``clock``.
    /// - Returns: The step's index.
    public static func step(at instant: ManualClock.Instant) -> Int {
        max(0, Int((instant.offset / step).rounded(.down)) - 1)
    }

    /// The clock of the run: it moves only when every task of the run waits.
    public let clock: ManualClock

    /// The inputs, in the order their diagrams are written: `inputs[0]` is the first diagram.
    public let inputs: Inputs

    /// The inputs of a test, made as they are asked for.
    public struct Inputs: Sendable {
        let clock: ManualClock
        let registry = Registry()

        /// The input drawn by the `index`th diagram.
        public subscript(index: Int) -> MarbleInput {
            MarbleInput(shared: registry.input(index), clock: clock)
        }
    }

    /// The inputs' shared parts, made on first use.
    final class Registry: Sendable {
        private let made = Mutex<[MarbleInput.Shared]>([])

        func input(_ index: Int) -> MarbleInput.Shared {
            made.withLock { made in
                while made.count <= index { made.append(MarbleInput.Shared()) }
                return made[index]
            }
        }

        /// Input `next()` calls not yet returned, over all inputs.
        var iterating: Int { made.withLock { $0.reduce(0) { $0 + $1.iterating.load(ordering: .relaxed) } } }
    }

    init(clock: ManualClock) {
        self.clock = clock
        inputs = Inputs(clock: clock)
    }
}

/// A marble test as its closure writes it: the input diagrams, the operator under test, the
/// expected output.
public struct MarbleTestCase<Output: AsyncSequence> {
    let inputs: [String]
    let output: Output
    let expected: String
}

/// Reads a marble test's closure: input diagrams (none to three), the sequence under test, the
/// expected diagram.
@resultBuilder
public enum MarbleTestBuilder {
    /// No input (a timer, say): the sequence and the expected diagram.
    public static func buildBlock<Output: AsyncSequence>(_ output: Output, _ expected: String) -> MarbleTestCase<Output> {
        MarbleTestCase(inputs: [], output: output, expected: expected)
    }

    /// One input.
    public static func buildBlock<Output: AsyncSequence>(_ input: String, _ output: Output, _ expected: String) -> MarbleTestCase<Output> {
        MarbleTestCase(inputs: [input], output: output, expected: expected)
    }

    /// Two inputs.
    public static func buildBlock<Output: AsyncSequence>(
        _ first: String, _ second: String, _ output: Output, _ expected: String
    ) -> MarbleTestCase<Output> {
        MarbleTestCase(inputs: [first, second], output: output, expected: expected)
    }

    /// Three inputs.
    public static func buildBlock<Output: AsyncSequence>(
        _ first: String, _ second: String, _ third: String, _ output: Output, _ expected: String
    ) -> MarbleTestCase<Output> {
        MarbleTestCase(inputs: [first, second, third], output: output, expected: expected)
    }
}

/// The outcome of a marble test: the diagrams, whether they matched, and what was left running.
///
/// Its `description` is the report to show on a mismatch: the inputs, `Expected:` and `Actual:`
/// aligned step by step, a caret under the first differing step, and a sentence per difference.
public struct MarbleResult: Sendable, CustomStringConvertible {
    /// The input diagrams.
    public var inputs: [String]
    /// The expected diagram, canonical.
    public var expected: String
    /// What the sequence did, drawn from the steps its events arrived at.
    public var actual: String
    /// Every event with its exact instant, for comparing runs.
    public var trace: [String]
    /// Tasks the operators started that were still running once the run was over (after
    /// cancelling the consumer if the output had not ended): 0 unless something leaks.
    public var liveTasks: Int
    /// Input `next()` calls still suspended at that point: 0 unless a base is still iterated.
    public var iteratingInputs: Int
    /// Why a diagram could not be read, if one could not.
    public var problem: String?
    /// Breaches of the `AsyncIteratorProtocol` contract seen by the consumer: with
    /// ``MarbleTheme/asyncAlgorithms`` it asks once more after `nil`, as the package's runner does,
    /// and anything but `nil` there is listed (`got "d" after the end at step 9`).
    public var violations: [String] = []

    /// Whether the output matched, the iterator kept its contract and nothing was left running.
    public var passed: Bool {
        problem == nil && expected == actual && violations.isEmpty && liveTasks == 0 && iteratingInputs == 0
    }

    /// The report: inputs, `Expected:`/`Actual:`, the caret and the differences.
    public var description: String {
        if let problem { return "Invalid marble diagram: \(problem)" }
        var lines = inputs.enumerated().map { MarbleResult.pad("Input \($0.offset):", 10) + $0.element }
        lines += MarbleResult.diff(expected: expected, actual: actual)
        lines += violations
        if liveTasks != 0 { lines.append("\(liveTasks) operator task(s) still running at the end") }
        if iteratingInputs != 0 { lines.append("\(iteratingInputs) input(s) still iterated at the end") }
        return lines.joined(separator: "\n")
    }

    /// `Expected:` and `Actual:` aligned frame by frame, a caret under the first difference, and
    /// one sentence per differing step.
    static func diff(expected: String, actual: String) -> [String] {
        let left = (try? MarbleNotation.frames(MarbleNotation.parse(expected))) ?? []
        let right = (try? MarbleNotation.frames(MarbleNotation.parse(actual))) ?? []
        var top = "Expected: ", bottom = "Actual:   ", caret = "          "
        var sentences: [String] = []
        for step in 0..<max(left.count, right.count) {
            let x = step < left.count ? left[step] : ""
            let y = step < right.count ? right[step] : ""
            let width = max(x.count, y.count, 1)
            top += pad(x, width)
            bottom += pad(y, width)
            if x != y {
                if sentences.isEmpty { caret += "^" }
                sentences.append("step \(step): expected \(describe(x)), got \(describe(y))")
            } else if sentences.isEmpty {
                caret += String(repeating: " ", count: width)
            }
        }
        top = trimmed(top)
        bottom = trimmed(bottom)
        if sentences.isEmpty { return [top, bottom] }
        // A few sentences say where it went wrong; past them, a count.
        if sentences.count > 4 {
            let more = sentences.count - 4
            sentences = Array(sentences.prefix(4)) + ["… and \(more) more step\(more == 1 ? "" : "s")"]
        }
        return [top, bottom, caret] + sentences
    }

    private static func trimmed(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }

    fileprivate static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func describe(_ frame: String) -> String {
        switch frame {
        case "": "nothing (the diagram had ended)"
        case "-": "no event"
        case "|": "finished"
        case "#": "a failure"
        default: frame
        }
    }
}

/// Runs a marble test: builds the operator from the inputs, consumes it on a ``ManualClock`` driven
/// until idle (``ManualClock/run(draining:until:)``), and draws the output.
///
/// Each element's step is the clock's time when the consumer received it; the sequence's end is
/// `|`, a thrown error `#`. With `cancelAt`, the consuming task is cancelled when the clock reaches
/// that step, before anything else due then runs. If the output has not ended when the run is idle,
/// the consumer is cancelled; then the result counts the operator tasks and input iterations still
/// alive (both must be zero to pass).
///
/// With `theme: .asyncAlgorithms`, the diagrams are in swift-async-algorithms' validation tokens
/// (``MarbleTheme``): a `;` in the expected diagram cancels the consumer at its step, and the
/// consumer calls `next()` on the package's schedule (``MarbleTheme/Translation/pulls``), so a `,`
/// delays its next call by a step, as a slow consumer would; and, as in the package, a `nil` after
/// the cancellation is recorded as `|` (the package's timer tests expect `[;|]`).
///
/// - Parameters:
///   - theme: The tokens the diagrams are written in.
///   - cancelAt: The step at which to cancel the consuming task, if any.
///   - build: The input diagrams, the sequence under test, the expected diagram.
/// - Returns: The result; show it when it did not pass.
///
/// ```swift
/// let result = validate {
///     "abcd----e---f-g----|"
///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
///     "------d----e-----g-|"
/// }
/// #expect(result.passed, "\(result)")
/// ```
public func validate<Output: AsyncSequence>(
    theme: MarbleTheme = .plumb,
    cancelAt: Int? = nil,
    @MarbleTestBuilder _ build: (MarbleTest) -> MarbleTestCase<Output>
) -> MarbleResult {
    let clock = ManualClock()
    let test = MarbleTest(clock: clock)
    let testCase = build(test)
    var result = MarbleResult(inputs: testCase.inputs, expected: "", actual: "", trace: [], liveTasks: 0, iteratingInputs: 0)
    let expected = theme.translate(testCase.expected)
    let cancelAt = cancelAt ?? expected.cancelAt
    do {
        result.expected = MarbleNotation.render(try MarbleNotation.parse(expected.diagram))
        for (index, diagram) in testCase.inputs.enumerated() {
            let events = try MarbleNotation.parse(theme.translate(diagram, input: true).diagram)
            test.inputs.registry.input(index).events.withLock { $0 = events }
        }
    } catch {
        result.problem = error.description
        return result
    }
    let recording = run(testCase.output, on: clock, cancelAt: cancelAt, pulls: expected.pulls)
    result.actual = MarbleNotation.render(recording.events)
    result.trace = recording.trace
    result.violations = recording.violations
    result.liveTasks = recording.liveTasks
    result.iteratingInputs = test.inputs.registry.iterating
    return result
}

private struct Recording {
    var events: [(step: Int, event: MarbleNotation.Event)] = []
    var trace: [String] = []
    var ended = false
    var liveTasks = 0
    var violations: [String] = []
}

/// What the run's tasks share: the recording and the consumer (to cancel).
private final class RunState: Sendable {
    let clock: ManualClock
    let recording = Mutex(Recording())
    let consumer = Mutex<Task<Void, Never>?>(nil)

    init(clock: ManualClock) { self.clock = clock }

    func record(_ event: MarbleNotation.Event) {
        let now = clock.now
        let step = MarbleTest.step(at: now)
        recording.withLock {
            $0.events.append((step, event))
            $0.trace.append("\(now): \(MarbleNotation.text(event))")
            if event == .finished || event == .failed { $0.ended = true }
        }
    }

    func cancelConsumer() { consumer.withLock { $0 }?.cancel() }

    func violated(_ what: String) {
        let step = MarbleTest.step(at: clock.now)
        recording.withLock { $0.violations.append("\(what) after the end at step \(step)") }
    }
}

/// Consumes `output` in a task on a manual executor, driving `clock` until idle.
private func run<Output: AsyncSequence>(_ output: Output, on clock: ManualClock, cancelAt: Int?, pulls: [Int]?) -> Recording {
    let executor = ManualExecutor()
    let tracker = TaskTracker()
    let state = RunState(clock: clock)
    let consume = UncheckedBox(output).consume
    TaskSpawning.$preferredExecutor.withValue(executor) {
        TaskSpawning.$tracker.withValue(tracker) {
            if let cancelAt {
                // Started first, so it goes to sleep first and wins ties with the run's sleepers.
                Task(executorPreference: executor) {
                    try? await clock.sleep(until: MarbleTest.instant(ofStep: cancelAt))
                    state.cancelConsumer()
                }
            }
            let task = Task(executorPreference: executor) { await consume(clock, pulls, state.record, state.violated) }
            state.consumer.withLock { $0 = task }
        }
    }
    clock.run(draining: executor)
    if !state.recording.withLock({ $0.ended }) {
        state.cancelConsumer()
        clock.run(draining: executor)
    }
    var result = state.recording.withLock { $0 }
    result.liveTasks = tracker.running
    return result
}

/// Carries the sequence under test into the one task that iterates it.
private struct UncheckedBox<Output: AsyncSequence>: @unchecked Sendable {  // Only the consumer task touches `value`, after this thread stops using it.
    let value: Output
    init(_ value: Output) { self.value = value }

    /// Iterates the sequence, recording each element, then its end; call `k` to `next()` waits
    /// for step `pulls[k]` on `clock` if that is still to come.
    ///
    /// Without `pulls` (``MarbleTheme/plumb``), a cancelled consumer records no end. With them
    /// (``MarbleTheme/asyncAlgorithms``), it records what the package's runner (its `Test.swift`)
    /// records: a `nil` from `next()` is `|` even after a cancellation, and a thrown error, even
    /// the cancelled wait's, is `^`; after a `nil` it asks once more and reports anything but `nil`
    /// to `violated`.
    @Sendable func consume(
        _ clock: ManualClock, _ pulls: [Int]?, _ record: @Sendable (MarbleNotation.Event) -> Void,
        _ violated: @Sendable (String) -> Void
    ) async {
        var iterator = value.makeAsyncIterator()
        var calls = 0
        do {
            while true {
                if let pulls, calls < pulls.count, pulls[calls] >= 0 {
                    let due = MarbleTest.instant(ofStep: pulls[calls])
                    if due > clock.now { try await clock.sleep(until: due) }
                }
                calls += 1
                guard let element = try await iterator.next() else { break }
                record(.value("\(element)"))
            }
            if pulls != nil || !Task.isCancelled { record(.finished) }
            guard pulls != nil else { return }
            do {
                if let pastEnd = try await iterator.next() { violated("got \"\(pastEnd)\"") }
            } catch {
                violated("got a failure")
            }
        } catch {
            record(.failed)
        }
    }
}
