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
