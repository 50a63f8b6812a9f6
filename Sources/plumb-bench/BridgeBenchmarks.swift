import Dispatch
import Reactive

/// Cases of the async bridges issue (`values`, `asyncmap`).
let bridgeBenchmarks: [BenchCase] = [
    BenchCase(
        name: "values",
        summary: "N values consumed with for await over Publisher.values; baseline AsyncStream (yield N, iterate)",
        run: { measureValues() }),
    BenchCase(
        name: "asyncmap",
        summary: "N values through asyncMap with a trivial async transform; baseline a for await loop calling it",
        run: { measureAsyncMap() }),
]

private let elementCount = 200_000

/// A trivial async function the optimiser cannot inline away.
@inline(never)
private func bump(_ value: Int) async -> Int { value &+ 1 }

/// Runs `body` in a task and blocks the calling (non-pool) thread until it returns.
private func blockingRun(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

private func measureValues() -> BenchResult {
    let n = elementCount
    let bridged = measure(operations: n) {
        blockingRun {
            var sum = 0
            for await value in (0..<n).publisher.values { sum &+= value }
            blackHole(sum)
        }
    }
    let baseline = measure(operations: n) {
        blockingRun {
            let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
                for value in 0..<n { continuation.yield(value) }
                continuation.finish()
            }
            var sum = 0
            for await value in stream { sum &+= value }
            blackHole(sum)
        }
    }
    return BenchResult(
        nsPerOp: bridged, baselineNsPerOp: baseline,
        notes: ["target: < 250 ns per element; N = \(n); demand is one value per next()"])
}

private func measureAsyncMap() -> BenchResult {
    let n = elementCount
    let bridged = measure(operations: n) {
        let done = DispatchSemaphore(value: 0)
        let box = SumBox()
        let cancellable = (0..<n).publisher
            .asyncMap { await bump($0) }
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { box.sum &+= $0 })
        done.wait()
        blackHole(box.sum)
        cancellable.cancel()
    }
    let baseline = measure(operations: n) {
        blockingRun {
            var sum = 0
            for await value in AsyncRange(n) { sum &+= await bump(value) }
            blackHole(sum)
        }
    }
    return BenchResult(
        nsPerOp: bridged, baselineNsPerOp: baseline,
        notes: ["target: < 1 µs per element; N = \(n); one long-lived task per subscription"])
}

/// Written only by the sink, which the subscription serialises; read after the completion.
private final class SumBox: @unchecked Sendable {
    // @unchecked: one writer (the serialised sink), read after the completion semaphore.
    @exclusivity(unchecked) var sum = 0
}

/// 0..<n as an AsyncSequence, so the baseline is a real `for await` loop.
private struct AsyncRange: AsyncSequence, Sendable {
    let count: Int
    init(_ count: Int) { self.count = count }
    struct AsyncIterator: AsyncIteratorProtocol {
        var next = 0
        let count: Int
        mutating func next() async -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
}
