import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `TestBuffer.swift`, rewritten for `ReactiveAsync`: the package's
/// `GatedSequence` (an element per `advance()`) is an `AsyncStream` whose continuation yields one
/// element per advance; the expected values are the package's. Its policy diagrams use the `,`
/// (delay next) token of a consumer that lags, which ``MarbleTheme`` does not translate; the
/// policies' drops are tested in `BufferTests` instead.
@Suite(.timeLimit(.minutes(1))) struct TestBuffer {
    @Test func test_buffering() async {
        let (gated, gate) = AsyncStream<Int>.makeStream()
        var iterator = gated.buffer(policy: .unbounded).makeAsyncIterator()
        gate.yield(1)
        #expect(await iterator.next() == 1)
        gate.yield(2)
        gate.yield(3)
        gate.yield(4)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == 4)
        gate.yield(5)
        gate.finish()
        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func test_buffering_withError() async throws {
        let (gated, gate) = AsyncStream<Int>.makeStream()
        var iterator = gated.map { @Sendable in try throwOn(3, $0) }.buffer(policy: .unbounded).makeAsyncIterator()
        gate.yield(1)
        #expect(try await iterator.next() == 1)
        gate.yield(2)
        gate.yield(3)
        gate.yield(4)
        #expect(try await iterator.next() == 2)
        for value in 5...7 { gate.yield(value) }
        await #expect(throws: PackageFailure.self) { try await iterator.next() }
        for _ in 0..<5 { #expect(try await iterator.next() == nil) }
    }
}
