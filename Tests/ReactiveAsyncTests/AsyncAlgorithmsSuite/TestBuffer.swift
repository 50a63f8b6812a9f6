import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `TestBuffer.swift`, rewritten for `ReactiveAsync`: the package's
/// `GatedSequence` (an element per `advance()`) is an `AsyncStream` whose continuation yields one
/// element per advance; the expected values are the package's. Its policy diagrams draw a consumer
/// that lags with the `,` (delay next) token: they run unchanged (the package's `.bufferingNewest`
/// is 1.0's `.bufferingLatest`).
@Suite(.hangLimit) struct TestBuffer {
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

    @Test(
        "the package's policy diagrams: a consumer that lags (`,`) behind a dropping buffer",
        arguments: [
            ("test_bufferingOldest", AsyncBufferSequencePolicy.bufferingOldest(2), "X-12-   34-    5   |", "X,,,[1,],,[2,],[3,][5,]|"),
            ("test_bufferingOldest_noDrops", .bufferingOldest(2), "X-12   3   4   5   |", "X,,[1,][2,][3,][45]|"),
            ("test_bufferingOldest_error", .bufferingOldest(2), "X-12345^", "X,,,,,,[12^]"),
            ("test_bufferingNewest", .bufferingLatest(2), "X-12-   34    -5|", "X,,,[1,],,[3,],[4,][5,]|"),
            ("test_bufferingNewest_noDrops", .bufferingLatest(2), "X-12   3   4   5   |", "X,,[1,][2,][3,][45]|"),
            ("test_bufferingNewest_error", .bufferingLatest(2), "X-12345^", "X,,,,,,[45^]"),
        ])
    func policies(name: String, policy: AsyncBufferSequencePolicy, input: String, expected: String) {
        expectValid(name, input, expected) { $0.inputs[0].buffer(policy: policy) }
    }
}
