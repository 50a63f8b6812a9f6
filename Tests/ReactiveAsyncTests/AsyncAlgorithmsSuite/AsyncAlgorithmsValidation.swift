import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// The package's `XCTestCase.validate { … }` (its `AsyncSequenceValidation` module) for the
/// package's tests rewritten in this suite: a suite that adopts this protocol calls `validate`
/// exactly as the package's `XCTestCase` subclasses do, with the diagrams in the package's tokens
/// (`^`, `[ ]`, `;`), `$0.inputs[i]` and `$0.clock`. It runs on `ReactiveAsyncTesting.validate`
/// (theme `.asyncAlgorithms`) and records an issue, with the `Expected:`/`Actual:` report, when the
/// output differs or a task or base iteration outlives the run.
protocol AsyncAlgorithmsValidation {}

extension AsyncAlgorithmsValidation {
    /// Validates the operator built in `build` against its expected diagram.
    func validate<Output: AsyncSequence>(
        sourceLocation: SourceLocation = #_sourceLocation,
        @MarbleTestBuilder _ build: (MarbleTest) -> MarbleTestCase<Output>
    ) {
        let result = ReactiveAsyncTesting.validate(theme: .asyncAlgorithms, build)
        #expect(result.passed, "\(result)", sourceLocation: sourceLocation)
    }
}

/// One row of a table of the package's diagrams: `input` through `operator` must give `expected`,
/// both in the package's tokens; a failure's report names the row (the package's test case).
func expectValid<Output: AsyncSequence>(
    _ name: String, _ input: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ operator: (MarbleTest) -> Output
) {
    let result = ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
        input
        `operator`($0)
        expected
    }
    #expect(result.passed, "\(name): \(result)", sourceLocation: sourceLocation)
}

/// The package's test helper of the same name: the characters of a chunk, joined.
@Sendable func concatCharacters(_ array: [String]) -> String { array.joined() }

/// The package's test helper of the same name: the digits of a chunk, summed.
@Sendable func sumCharacters(_ array: [String]) -> String { "\(array.reduce(0) { $0 + (Int($1) ?? 0) })" }

/// The package's test `Failure`.
struct PackageFailure: Error, Equatable {}

/// The package's `throwOn(_:_:)`: returns `value`, or throws ``PackageFailure`` when it is `toThrowOn`.
func throwOn<T: Equatable>(_ toThrowOn: T, _ value: T) throws -> T {
    if value == toThrowOn { throw PackageFailure() }
    return value
}

/// What the package's iterate-to-the-end tests look at: the elements, the error that ended the
/// iteration, and what one more `next()` gave after it (the package asks again and expects nil).
struct Drained<Element> {
    var elements: [Element] = []
    var error: (any Error)?
    var pastEnd: Element?
    var pastEndError: (any Error)?
}

extension Drained: Sendable where Element: Sendable {}

/// Iterates `sequence` to its end (or its error), then calls `next()` once more.
func drain<Sequence: AsyncSequence>(_ sequence: Sequence) async -> Drained<Sequence.Element> {
    var iterator = sequence.makeAsyncIterator()
    let (elements, error) = await collect(from: &iterator)
    var drained = Drained<Sequence.Element>(elements: elements, error: error)
    do {
        drained.pastEnd = try await iterator.next()
    } catch {
        drained.pastEndError = error
    }
    return drained
}

/// The package's `Indefinite`: a sequence that gives `value` for ever.
struct Indefinite<Element: Sendable>: Sequence, IteratorProtocol, Sendable {
    let value: Element
    func next() -> Element? { value }
    func makeIterator() -> Indefinite { self }
}

/// The package's cancellation tests: a task iterates `sequence` (an endless one); once it has an
/// element, the task is cancelled, and its loop must end (the suite's time limit catches a loop
/// that does not). Returns the last element the loop saw, to check that nothing came after the
/// endless base (a chain must not move on to its next base when cancelled).
func lastElementBeforeCancellationEnds<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) async -> Sequence.Element?
where Sequence.Element: Sendable {
    let (started, signal) = AsyncStream<Void>.makeStream()
    let task = Task { () -> Sequence.Element? in
        var last: Sequence.Element?
        do {
            for try await element in sequence {
                if last == nil { signal.yield() }
                last = element
                // An endless base that never suspends (an `Indefinite`'s `.async`) would hold one
                // of the few cooperative threads for good; the package's XCTest waits block a
                // thread of their own instead.
                await Task.yield()
            }
        } catch {}
        return last
    }
    var waiting = started.makeAsyncIterator()
    _ = await waiting.next()
    task.cancel()
    return await task.value
}

/// The package's usual assertions on one run: exactly `expected`, then the package's failure
/// (when `fails`) or the end, and nil (not an error) past the end.
func expectDrained<Sequence: AsyncSequence>(
    _ sequence: Sequence, _ expected: [Sequence.Element], fails: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) async where Sequence.Element: Equatable {
    let drained = await drain(sequence)
    #expect(drained.elements == expected, sourceLocation: sourceLocation)
    if fails {
        #expect(drained.error is PackageFailure, "expected the package's failure, got \(String(describing: drained.error))", sourceLocation: sourceLocation)
    } else {
        #expect(drained.error == nil, "unexpected \(String(describing: drained.error))", sourceLocation: sourceLocation)
    }
    #expect(drained.pastEnd == nil && drained.pastEndError == nil, "next() past the end gave something", sourceLocation: sourceLocation)
}
