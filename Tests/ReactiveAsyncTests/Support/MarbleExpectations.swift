import ReactiveAsyncTesting
import Testing

/// Runs a marble case (`validate`) and expects it to pass, showing the expected and actual
/// diagrams at the caller's line when it does not: the one way the time-based operators' tests
/// check a diagram.
///
/// ```swift
/// expectMarbles {
///     "abcd----e---f-g----|"
///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
///     "------d----e-----g-|"
/// }
/// ```
///
/// - Parameters:
///   - cancelAt: The step at which the consumer is cancelled, if any.
///   - sourceLocation: Where a failure is reported.
///   - build: The inputs, the operator under test and the expected output.
/// - Returns: The result, for further checks (live tasks, iterating inputs).
@discardableResult
func expectMarbles<Output: AsyncSequence>(
    cancelAt: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    @MarbleTestBuilder _ build: (MarbleTest) -> MarbleTestCase<Output>
) -> MarbleResult {
    let result = validate(cancelAt: cancelAt, build)
    #expect(result.passed, "\(result)", sourceLocation: sourceLocation)
    return result
}
