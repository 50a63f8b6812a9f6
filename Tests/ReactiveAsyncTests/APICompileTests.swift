import ReactiveAsync
import Testing

// Written against swift-async-algorithms 1.x's documented signatures (its guides' "Detailed
// Design" sections and its public declarations): every result carries an explicit type, so a
// drift in a name, a generic parameter, a label, `Sendable` or a throws shape breaks this build.
// The bodies also run, over finite inputs, so the test passes only if each call returns.

private typealias Ints = AsyncSyncSequence<[Int]>

private func requireSendable<T: Sendable>(_ value: T) {}

@Suite struct APICompileTests {
    @Test("the combining operators compile with the package's signatures and types")
    func combining() async throws {
        let a: Ints = [1, 2].async
        let b: Ints = [3].async
        let merged2: AsyncMerge2Sequence<Ints, Ints> = merge(a, b)
        let merged3: AsyncMerge3Sequence<Ints, Ints, Ints> = merge(a, b, a)
        let zipped2: AsyncZip2Sequence<Ints, Ints> = zip(a, b)
        let zipped3: AsyncZip3Sequence<Ints, Ints, Ints> = zip(a, b, a)
        let latest2: AsyncCombineLatest2Sequence<Ints, Ints> = combineLatest(a, b)
        let latest3: AsyncCombineLatest3Sequence<Ints, Ints, Ints> = combineLatest(a, b, a)
        let chained2: AsyncChain2Sequence<Ints, Ints> = chain(a, b)
        let chained3: AsyncChain3Sequence<Ints, Ints, Ints> = chain(a, b, a)
        let nested: AsyncSyncSequence<[Ints]> = [a, b].async
        let joined: AsyncJoinedSequence<AsyncSyncSequence<[Ints]>> = nested.joined()
        let separated: AsyncJoinedBySeparatorSequence<AsyncSyncSequence<[Ints]>, Ints> = nested.joined(separator: b)

        requireSendable(merged2)
        requireSendable(merged3)
        requireSendable(zipped2)
        requireSendable(zipped3)
        requireSendable(latest2)
        requireSendable(latest3)
        requireSendable(chained2)
        requireSendable(chained3)
        requireSendable(joined)
        requireSendable(separated)

        // Non-throwing bases: iterating needs no `try` (rethrows).
        var mergeIterator: AsyncMerge2Sequence<Ints, Ints>.AsyncIterator = merged2.makeAsyncIterator()
        let first: Int? = await mergeIterator.next()
        var zipIterator: AsyncZip2Sequence<Ints, Ints>.Iterator = zipped2.makeAsyncIterator()
        let pair: (Int, Int)? = await zipIterator.next()
        var latestIterator: AsyncCombineLatest3Sequence<Ints, Ints, Ints>.Iterator = latest3.makeAsyncIterator()
        let triple: (Int, Int, Int)? = await latestIterator.next()
        var chainIterator: AsyncChain3Sequence<Ints, Ints, Ints>.Iterator = chained3.makeAsyncIterator()
        let chainedFirst: Int? = await chainIterator.next()
        for await _ in merged3 {}
        for await _ in zipped3 {}
        for await _ in latest2 {}
        for await _ in chained2 {}
        for await _ in joined {}
        for await _ in separated {}
        #expect(first != nil && pair != nil && triple != nil && chainedFirst == 1)

        // A throwing base makes the combination throwing.
        let throwing = AsyncThrowingStream<Int, any Error> { $0.finish() }
        for try await _ in merge(throwing, a) {}
        for try await _ in zip(a, throwing) {}
        for try await _ in combineLatest(throwing, a) {}
        for try await _ in chain(a, throwing) {}
    }

    @Test("the element operators compile with the package's signatures and types")
    func elements() async throws {
        let a: Ints = [1, 1, 2, 3].async
        let chunks: AsyncChunksOfCountSequence<Ints, [Int]> = a.chunks(ofCount: 2)
        let chunksInto: AsyncChunksOfCountSequence<Ints, ContiguousArray<Int>> = a.chunks(ofCount: 2, into: ContiguousArray<Int>.self)
        let byGroup: AsyncChunkedByGroupSequence<Ints, [Int]> = a.chunked(by: { $0 <= $1 })
        let byGroupInto: AsyncChunkedByGroupSequence<Ints, ContiguousArray<Int>> = a.chunked(into: ContiguousArray<Int>.self, by: { $0 <= $1 })
        let onProjection: AsyncChunkedOnProjectionSequence<Ints, Bool, [Int]> = a.chunked(on: { $0 > 1 })
        let onProjectionInto: AsyncChunkedOnProjectionSequence<Ints, Bool, ContiguousArray<Int>> = a.chunked(
            into: ContiguousArray<Int>.self, on: { $0 > 1 })
        let distinct: AsyncRemoveDuplicatesSequence<Ints> = a.removeDuplicates()
        let asyncPredicate: @Sendable (Int, Int) async -> Bool = { $0 == $1 }
        let distinctBy: AsyncRemoveDuplicatesSequence<Ints> = a.removeDuplicates(by: asyncPredicate)
        let throwingPredicate: @Sendable (Int, Int) async throws -> Bool = { $0 == $1 }
        let distinctThrowing: AsyncThrowingRemoveDuplicatesSequence<Ints> = a.removeDuplicates(by: throwingPredicate)
        let pairs: AsyncAdjacentPairsSequence<Ints> = a.adjacentPairs()
        let compacted: AsyncCompactedSequence<AsyncSyncSequence<[Int?]>, Int> = [1, nil].async.compacted()
        let interspersed: AsyncInterspersedSequence<Ints> = a.interspersed(with: 0)
        let interspersedEvery: AsyncInterspersedSequence<Ints> = a.interspersed(every: 2, with: 0)
        let syncSeparator: @Sendable () -> Int = { 0 }
        let interspersedSync: AsyncInterspersedSequence<Ints> = a.interspersed(every: 1, with: syncSeparator)
        let asyncSeparator: @Sendable () async -> Int = { 0 }
        let interspersedAsync: AsyncInterspersedSequence<Ints> = a.interspersed(with: asyncSeparator)
        let throwingSeparator: @Sendable () throws -> Int = { 0 }
        let interspersedThrowing: AsyncThrowingInterspersedSequence<Ints> = a.interspersed(with: throwingSeparator)
        let asyncThrowingSeparator: @Sendable () async throws -> Int = { 0 }
        let interspersedAsyncThrowing: AsyncThrowingInterspersedSequence<Ints> = a.interspersed(every: 3, with: asyncThrowingSeparator)
        let inclusive: AsyncInclusiveReductionsSequence<Ints> = a.reductions { $0 + $1 }
        let inclusiveThrowingTransform: @Sendable (Int, Int) async throws -> Int = { $0 + $1 }
        let inclusiveThrowing: AsyncThrowingInclusiveReductionsSequence<Ints> = a.reductions(inclusiveThrowingTransform)
        let exclusive: AsyncExclusiveReductionsSequence<Ints, String> = a.reductions("") { $0 + "\($1)" }
        let exclusiveInto: AsyncExclusiveReductionsSequence<Ints, [Int]> = a.reductions(into: []) { $0.append($1) }
        let exclusiveThrowingTransform: @Sendable (Int, Int) async throws -> Int = { $0 + $1 }
        let exclusiveThrowing: AsyncThrowingExclusiveReductionsSequence<Ints, Int> = a.reductions(0, exclusiveThrowingTransform)
        let intoThrowingTransform: @Sendable (inout Int, Int) async throws -> Void = { $0 += $1 }
        let exclusiveIntoThrowing: AsyncThrowingExclusiveReductionsSequence<Ints, Int> = a.reductions(into: 0, intoThrowingTransform)

        requireSendable(chunks)
        requireSendable(byGroup)
        requireSendable(onProjection)
        requireSendable(distinct)
        requireSendable(distinctThrowing)
        requireSendable(pairs)
        requireSendable(compacted)
        requireSendable(interspersed)
        requireSendable(interspersedThrowing)
        requireSendable(inclusive)
        requireSendable(inclusiveThrowing)
        requireSendable(exclusive)
        requireSendable(exclusiveThrowing)

        // rethrows over a non-throwing base: no `try`.
        for await _ in chunks {}
        for await _ in chunksInto {}
        for await _ in byGroup {}
        for await _ in byGroupInto {}
        for await _ in onProjection {}
        for await _ in onProjectionInto {}
        for await _ in distinct {}
        for await _ in distinctBy {}
        for await _ in pairs {}
        for await _ in compacted {}
        for await _ in interspersed {}
        for await _ in interspersedEvery {}
        for await _ in interspersedSync {}
        for await _ in interspersedAsync {}
        for await _ in inclusive {}
        for await _ in exclusive {}
        for await _ in exclusiveInto {}
        // The throwing forms always throw.
        for try await _ in distinctThrowing {}
        for try await _ in interspersedThrowing {}
        for try await _ in interspersedAsyncThrowing {}
        for try await _ in inclusiveThrowing {}
        for try await _ in exclusiveThrowing {}
        for try await _ in exclusiveIntoThrowing {}
    }

    @Test("the collection initializers and .async compile with the package's signatures")
    func collections() async throws {
        let sync: AsyncSyncSequence<[Int]> = [1, 2].async
        var iterator: AsyncSyncSequence<[Int]>.Iterator = sync.makeAsyncIterator()
        let first: Int? = await iterator.next()
        let array: [Int] = await Array(sync)
        let set: Set<Int> = await Set(sync)
        let unique: [String: Int] = await Dictionary(uniqueKeysWithValues: [("a", 1)].async)
        let combined: [String: Int] = await Dictionary([("a", 1), ("a", 2)].async, uniquingKeysWith: { $0 + $1 })
        let grouped: [Bool: [Int]] = await Dictionary(grouping: sync, by: { $0 > 1 })
        let fromThrowing: [Int] = try await Array(AsyncThrowingStream<Int, any Error> { $0.finish() })
        #expect(first == 1 && array == [1, 2] && set == [1, 2] && unique == ["a": 1] && combined == ["a": 3])
        #expect(grouped == [false: [1], true: [2]] && fromThrowing.isEmpty)
    }
}

// Written against swift-async-algorithms' `MultiProducerSingleConsumerAsyncChannel.swift` public
// declarations (1.1) and proposal SAA-0016's examples: every name, label, `~Copyable` shape,
// `sending` and throws shape the package's users write. The body also runs.

/// The package's synchronous `send` from a non-async function (in an async one the async overload wins).
private func syncSends(
    _ source: inout MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source
) throws -> MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source.SendResult {
    let one: MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source.SendResult = try source.send(1)
    switch consume one {
    case .produceMore: break
    case .enqueueCallback(var handle):
        let hashable: AnyHashable = handle
        _ = hashable
        handle.cancelCallback()
    }
    return try source.send(contentsOf: [2, 3])
}

extension APICompileTests {
    @Test("MultiProducerSingleConsumerAsyncChannel compiles with the package's signatures")
    func compiles() async throws {
        // High enough that no send below waits for the consumer.
        let strategy: MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source.BackpressureStrategy = .watermark(low: 2, high: 100)
        let weighted = MultiProducerSingleConsumerAsyncChannel<String, Never>.Source.BackpressureStrategy.watermark(
            low: 2, high: 4, waterLevelForElement: { $0.count })
        requireSendable(strategy)
        requireSendable(weighted)

        var channelAndSource: MultiProducerSingleConsumerAsyncChannel<Int, any Error>.ChannelAndStream = MultiProducerSingleConsumerAsyncChannel.makeChannel(
            of: Int.self, throwing: (any Error).self, backpressureStrategy: strategy)
        var channel: MultiProducerSingleConsumerAsyncChannel<Int, any Error> = channelAndSource.takeChannel()
        var source: MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source = consume channelAndSource.source
        var additional: MultiProducerSingleConsumerAsyncChannel<Int, any Error>.Source = source.makeAdditionalSource()
        source.setOnTerminationCallback { @Sendable in }
        source.setOnTerminationCallback(nil)

        let result = try syncSends(&source)
        switch consume result {
        case .produceMore: break
        case .enqueueCallback(var handle): handle.enqueueCallback(onProduceMore: { (_: Result<Void, any Error>) in })
        }
        source.send(4, onProduceMore: { @Sendable (_: Result<Void, any Error>) in })
        source.send(contentsOf: [5], onProduceMore: { @Sendable _ in })
        try await additional.send(6)
        try await additional.send(contentsOf: [7])
        try await additional.send(contentsOf: [8].async)
        additional.finish(throwing: nil)
        source.finish()

        let first: Int? = try await channel.next()
        #expect(first == 1)
        let errorType: any Error.Type = MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError.self
        _ = errorType

        // The Never form: no `throwing:`, and `next()` without `try`.
        var neverChannelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(of: Int.self, backpressureStrategy: .watermark(low: 1, high: 2))
        let neverChannel = neverChannelAndSource.takeChannel()
        var neverSource = consume neverChannelAndSource.source
        try await neverSource.send(1)
        neverSource.finish()
        let elements = neverChannel.elements()
        requireSendable(elements)
        for await value in elements { #expect(value == 1) }
    }
}
