import ReactiveAsync
import Testing

/// The error the package's mapping produces.
private struct MyAwesomeError: Error {}

/// The package's mapping, `{ _ in MyAwesomeError() }`, as a generic function: for a base that
/// cannot fail (`Failure == Never`) the closure would be reported as never executed.
@Sendable private func mapNever<Failure: Error>(_: Failure) -> MyAwesomeError { MyAwesomeError() }

/// The error its base throws (the package uses `URLError(.badURL)`).
private struct BadURL: Error {}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestMapError.swift`, rewritten for
/// `ReactiveAsync`: the base's error comes out mapped (and typed); a base that does not fail or is
/// empty passes through; cancellation ends the loop. Not rewritten: `test_mapFailure` (a later
/// rename that 1.1 does not have).
@Suite(.hangLimit) struct TestMapError {
    // The package checks that the error is a MyAwesomeError; with typed throws the compiler does:
    // `failure(of:)` returns the sequence's `Failure`, declared here as MyAwesomeError.
    @Test func test_mapError() async {
        let sequence = [BadURL()].async.map { error -> Int in throw error }.mapError { _ in MyAwesomeError() }
        let failure: MyAwesomeError? = await failure(of: sequence)
        #expect(failure != nil, "sequence should throw")
    }

    @Test func test_mapError_nonThrowing() async {
        await expectDrained([1, 2, 3, 4, 5].async.mapError(mapNever), [1, 2, 3, 4, 5])
    }

    @Test func test_mapError_cancellation() async {
        let sequence = Indefinite(value: "test").async.mapError(mapNever)
        #expect(await lastElementBeforeCancellationEnds(sequence) == "test")
    }

    @Test func test_mapError_empty() async {
        await expectDrained([Int]().async.mapError(mapNever), [])
    }
}

/// The typed failure that ended `sequence`, nil if it ended without one.
private func failure<Sequence: AsyncSequence>(of sequence: Sequence) async -> Sequence.Failure? {
    var iterator = sequence.makeAsyncIterator()
    do {
        while try await iterator.next(isolation: nil) != nil {}
        return nil
    } catch {
        return error
    }
}
