import ReactiveAsync
import Testing

/// The package's `Gate`: `enter()` waits until `open()`.
private struct Gate: Sendable {
    private let opened: AsyncStream<Void>
    private let opener: AsyncStream<Void>.Continuation

    init() { (opened, opener) = AsyncStream.makeStream() }

    func open() { opener.finish() }

    func enter() async {
        for await _ in opened {}
    }
}

/// The package's paired consumers: each makes its iterator, opens its own gate and waits at the
/// other's, so both iterators exist before either asks for an element; then each takes everything
/// (and the error that ended it, if any).
private func twoConsumers<Shared: AsyncSequence & Sendable>(of shared: Shared) -> [Task<(elements: [Shared.Element], error: (any Error)?), Never>]
where Shared.Element: Sendable {
    let gates = [Gate(), Gate()]
    return (0..<2).map { index in
        Task {
            var iterator = shared.makeAsyncIterator()
            gates[index].open()
            await gates[1 - index].enter()
            return await collect(from: &iterator)
        }
    }
}

/// The package's `GatedSequence` of 1…5, fully released: an `AsyncStream` that has them buffered
/// and then finishes.
private func released(_ elements: [Int]) -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    for element in elements { continuation.yield(element) }
    continuation.finish()
    return stream
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestShare.swift`, rewritten for
/// `ReactiveAsync`'s `share(bufferingPolicy:)`. The package's tests that sleep 1–50 ms to make one
/// consumer slow keep their assertions (which hold whatever the timing); here the slow consumer
/// instead waits for the fast one to finish, the slowest it can be. Each test names its case.
@Suite(.hangLimit) struct TestShare {
    @Test func test_share_delivers_elements_to_multiple_consumers() async {
        for consumer in twoConsumers(of: [1, 2, 3, 4, 5].async.share()) {
            #expect(await consumer.value.elements == [1, 2, 3, 4, 5])
        }
    }

    @Test func test_share_with_single_consumer() async {
        await expectDrained([1, 2, 3, 4, 5].async.share(), [1, 2, 3, 4, 5])
    }

    @Test func test_share_with_empty_source() async {
        await expectDrained([Int]().async.share(), [])
    }

    @Test func test_share_with_bounded_buffering() async {
        for consumer in twoConsumers(of: released([1, 2, 3, 4, 5]).share(bufferingPolicy: .bounded(2))) {
            #expect(await consumer.value.elements.sorted() == [1, 2, 3, 4, 5])
        }
    }

    @Test func test_share_with_no_buffering() async {
        for consumer in twoConsumers(of: [1, 2, 3, 4, 5].async.share(bufferingPolicy: .bounded(0))) {
            #expect(await consumer.value.elements.sorted() == [1, 2, 3, 4, 5])
        }
    }

    @Test func test_share_with_no_buffering_multiple() async {
        for _ in 0..<10 { await test_share_with_no_buffering() }
    }

    @Test func test_share_with_unbounded_buffering() async {
        for consumer in twoConsumers(of: [1, 2, 3, 4, 5].async.share(bufferingPolicy: .unbounded)) {
            #expect(await consumer.value.elements == [1, 2, 3, 4, 5])
        }
    }

    @Test(arguments: [AsyncBufferSequencePolicy.bufferingLatest(2), .bufferingOldest(2)])
    func test_share_with_dropping_buffering(policy: AsyncBufferSequencePolicy) async {
        // test_share_with_bufferingLatest_buffering and test_share_with_bufferingOldest_buffering:
        // the slow consumer takes 1, then waits until the fast one has everything.
        let shared = released([1, 2, 3, 4, 5]).share(bufferingPolicy: policy)
        let fastDone = Gate()
        let ready = [Gate(), Gate()]
        let fast = Task {
            var iterator = shared.makeAsyncIterator()
            ready[0].open()
            await ready[1].enter()
            let all = await collect(from: &iterator).elements
            fastDone.open()
            return all
        }
        let slow = Task {
            var iterator = shared.makeAsyncIterator()
            ready[1].open()
            await ready[0].enter()
            var taken: [Int] = []
            if let first = await iterator.next(isolation: nil) { taken.append(first) }
            await fastDone.enter()
            return taken + (await collect(from: &iterator).elements)
        }
        // The package checks only the slow side (one buffer serves both here, so what the
        // policy drops, it drops for the fast side too).
        _ = await fast.value
        let slowResults = await slow.value
        #expect(slowResults.first == 1)
        #expect(Set(slowResults).isSubset(of: [1, 2, 3, 4, 5]))
    }

    @Test func test_share_cancellation_of_single_consumer() async {
        #expect(await lastElementBeforeCancellationEnds(Indefinite(value: 42).async.share()) == 42)
    }

    @Test func test_share_cancellation_with_multiple_consumers() async {
        let shared = Indefinite(value: 42).async.share()
        async let first = lastElementBeforeCancellationEnds(shared)
        async let second = lastElementBeforeCancellationEnds(shared)
        #expect(await [first, second] == [42, 42])
    }

    @Test func test_share_cancellation_cancels_source_when_no_consumers() async {
        #expect(await lastElementBeforeCancellationEnds(Indefinite(value: 1).async.share()) == 1)
    }

    @Test func test_share_propagates_errors_to_all_consumers() async {
        let source = [1, 2, 3, 4, 5].async.map { try throwOn(3, $0) }
        for consumer in twoConsumers(of: source.share()) {
            let run = await consumer.value
            #expect(run.elements == [1, 2])
            #expect(run.error is PackageFailure)
        }
    }

    @Test func test_share_with_late_joining_consumer() async {
        let (gated, gate) = AsyncStream<Int>.makeStream()
        let shared = gated.share(bufferingPolicy: .unbounded)
        let hasTwo = Gate()
        let early = Task {
            var iterator = shared.makeAsyncIterator()
            var taken: [Int] = []
            while let value = await iterator.next(isolation: nil) {
                taken.append(value)
                if value == 2 { hasTwo.open() }
            }
            return taken
        }
        gate.yield(1)
        gate.yield(2)
        await hasTwo.enter()
        let late = Task { await drain(shared).elements }
        for value in 3...5 { gate.yield(value) }
        gate.finish()
        #expect(await early.value == [1, 2, 3, 4, 5])
        #expect(await late.value.count <= 5)
    }

    @Test func test_share_iterator_independence() async {
        let shared = [1, 2, 3, 4, 5].async.share()
        var iterator1 = shared.makeAsyncIterator()
        var iterator2 = shared.makeAsyncIterator()
        let firsts = [await iterator1.next(isolation: nil), await iterator2.next(isolation: nil)]
        let seconds = [await iterator1.next(isolation: nil), await iterator2.next(isolation: nil)]
        #expect(firsts == [1, 1])
        #expect(seconds == [2, 2])
    }

    @Test func test_share_cleans_up_when_all_consumers_finish() async {
        let shared = [1, 2, 3].async.share()
        #expect(await drain(shared).elements == [1, 2, 3])
        var newIterator = shared.makeAsyncIterator()
        #expect(await newIterator.next(isolation: nil) == nil)
    }

    @Test func test_share_multiple_sequential_consumers() async {
        let shared = [1, 2, 3, 4, 5].async.share(bufferingPolicy: .unbounded)
        #expect(await drain(shared).elements == [1, 2, 3, 4, 5])
        #expect(await drain(shared).elements.isEmpty)
    }
}
