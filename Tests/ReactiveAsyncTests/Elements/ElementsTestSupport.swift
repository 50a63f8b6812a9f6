import Testing

import ReactiveAsync

/// A base that yields `values`, then fails with `TestFailure(id: 1)`.
func failing<Element: Sendable>(after values: [Element]) -> AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream { input in
        for value in values { input.yield(value) }
        input.finish(throwing: TestFailure(id: 1))
    }
}

/// Runs `operate` over an `AsyncStream` that never finishes on its own: yields `values`, waits for
/// the first output, cancels the consumer and returns what it received. A pull-through operator
/// must end (its base returns `nil` on cancellation) and add nothing after the cancel.
func outputsUntilCancelled<Output: Sendable, Operated: AsyncSequence & Sendable>(
    feeding values: [Int],
    _ operate: @Sendable (AsyncStream<Int>) -> Operated
) async -> [Output] where Operated.Element == Output, Operated.Failure == Never {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let (delivered, deliveredInput) = AsyncStream.makeStream(of: Void.self)
    let operated = operate(base)
    let consumer = Task {
        var received: [Output] = []
        for await output in operated {
            received.append(output)
            deliveredInput.yield()
        }
        return received
    }
    for value in values { input.yield(value) }
    var signals = delivered.makeAsyncIterator()
    await signals.next()
    consumer.cancel()
    return await consumer.value
}

/// `count` random integers in `range`.
func randomValues(_ random: inout SeededRandom, count: ClosedRange<Int>, in range: ClosedRange<Int>) -> [Int] {
    (0..<Int.random(in: count, using: &random)).map { _ in Int.random(in: range, using: &random) }
}
