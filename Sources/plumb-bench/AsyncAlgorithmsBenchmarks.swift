import Dispatch
import ReactiveAsync
import Synchronization

/// Cases of issue 42 (`ReactiveAsync`, swift-async-algorithms' twin). Each is measured against
/// the floor: the same number of elements through a plain `AsyncStream` consumed by `for await`,
/// measured in the same run. Adding a case is one `asyncCase` entry: its body consumes `n`
/// elements and returns their sum.
let asyncAlgorithmsBenchmarks: [BenchCase] = [
    asyncCase("async-channel", "N elements sent through AsyncChannel by one task, received with for await by another", target: 2) { n in
        let channel = AsyncChannel<Int>()
        let producer = Task {
            for value in 0..<n { await channel.send(value) }
            channel.finish()
        }
        var sum = 0
        for await value in channel { sum &+= value }
        await producer.value
        return sum
    },
    asyncCase("async-buffer-bounded", "N elements of a local async sequence through buffer(policy: .bounded(64))", target: 2) { n in
        var sum = 0
        for await value in CountingSequence(count: n).buffer(policy: .bounded(64)) { sum &+= value }
        return sum
    },
    asyncCase("async-buffer-unbounded", "N elements of a local async sequence through buffer(policy: .unbounded)", target: 2) { n in
        var sum = 0
        for await value in CountingSequence(count: n).buffer(policy: .unbounded) { sum &+= value }
        return sum
    },
    asyncCase("async-share", "N elements of a local async sequence through share() (one side, the default .bounded(1))", target: 2) { n in
        var sum = 0
        for await value in CountingSequence(count: n).share() { sum &+= value }
        return sum
    },
    asyncCase("async-merge", "N elements of two local async sequences (N/2 each) through merge", target: 4) { n in
        var sum = 0
        for await value in ReactiveAsync.merge(CountingSequence(count: n / 2), CountingSequence(count: n - n / 2)) { sum &+= value }
        return sum
    },
    asyncCase("async-zip", "N pairs from two local async sequences of N through zip", target: 4) { n in
        var sum = 0
        for await (a, b) in ReactiveAsync.zip(CountingSequence(count: n), CountingSequence(count: n)) { sum &+= a &+ b }
        return sum
    },
    asyncCase("async-combine-latest", "N elements of two local async sequences (N/2 each) through combineLatest", target: 4) { n in
        var sum = 0
        for await (a, b) in ReactiveAsync.combineLatest(CountingSequence(count: n / 2), CountingSequence(count: n - n / 2)) {
            sum &+= a &+ b
        }
        return sum
    },
    asyncCase("async-chunks", "N elements of a local async sequence through chunks(ofCount: 10)", target: 2) { n in
        var sum = 0
        for await chunk in CountingSequence(count: n).chunks(ofCount: 10) { sum &+= chunk.count }
        return sum
    },
    asyncCase(
        "async-debounce",
        "N elements 2 ms apart on a ManualClock drained by hand, through debounce(for: 1 ms) on the same clock (every element goes out)",
        target: 2,
        reference: ("base_alone", "the same base consumed without debounce, on the same clock and executor", baseAloneOnManualClock)
    ) { n in debounceOnManualClock(n) },
    asyncCase("async-map-filter", "N elements of a local async sequence through map { $0 * 3 }.filter { $0 % 2 == 0 }", target: 2) { n in
        var sum = 0
        for await value in CountingSequence(count: n).map({ $0 &* 3 }).filter({ $0 % 2 == 0 }) { sum &+= value }
        return sum
    },
]

private let asyncElementCount = 100_000

/// `debounce` on the virtual clock: a base that sleeps 2 ms on a `ManualClock` before each
/// element, debounced for 1 ms, its tasks on a `ManualExecutor` that this thread drains while the
/// clock advances only when every task waits (ReactiveAsync's advance-until-idle driver).
private func debounceOnManualClock(_ n: Int) -> Int {
    let clock = ManualClock()
    let executor = ManualExecutor()
    let sum = Atomic<Int>(0)
    Task(executorPreference: executor) {
        await TaskSpawning.$preferredExecutor.withValue(executor) {
            var local = 0
            for await value in TickingSequence(count: n, clock: clock).debounce(for: .milliseconds(1), clock: clock) {
                local &+= value
            }
            sum.store(local, ordering: .relaxed)
        }
    }
    clock.run(draining: executor)
    return sum.load(ordering: .relaxed)
}

/// The base of `debounceOnManualClock` alone: what the virtual clock and its executor cost per
/// element before debounce adds its own.
private func baseAloneOnManualClock(_ n: Int) -> Int {
    let clock = ManualClock()
    let executor = ManualExecutor()
    let sum = Atomic<Int>(0)
    Task(executorPreference: executor) {
        var local = 0
        for await value in TickingSequence(count: n, clock: clock) { local &+= value }
        sum.store(local, ordering: .relaxed)
    }
    clock.run(draining: executor)
    return sum.load(ordering: .relaxed)
}

/// 0, 1, 2, … n - 1, each after sleeping 2 ms on `clock`.
private struct TickingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let count: Int
    let clock: ManualClock

    func makeAsyncIterator() -> Iterator { Iterator(count: count, clock: clock) }

    struct Iterator: AsyncIteratorProtocol {
        let count: Int
        let clock: ManualClock
        var current = 0

        mutating func next() async -> Int? {
            guard current < count, (try? await clock.sleep(for: .milliseconds(2))) != nil else { return nil }
            defer { current += 1 }
            return current
        }
    }
}

/// A case measured against the `AsyncStream` floor: `body(n)` consumes n elements.
///
/// `reference`, if given, is measured too and reported as `<name>_ns_per_element` (a part of the
/// case's cost, such as its base alone), with its description in the notes.
private func asyncCase(
    _ name: String, _ summary: String, target: Double,
    reference: (name: String, description: String, body: @Sendable (Int) -> Int)? = nil,
    _ body: @escaping @Sendable (Int) async -> Int
) -> BenchCase {
    BenchCase(name: name, summary: summary + "; floor: N elements through AsyncStream with for await") {
        let n = asyncElementCount
        let figure = measure(operations: n) { blockingRun { blackHole(await body(n)) } }
        let floor = measureStreamFloor(n)
        let concurrent = measure(operations: n) { blockingRun { blackHole(await concurrentStreamSum(n)) } }
        var notes = [
            "target: within \(target)x of the floor; N = \(n)",
            "AsyncStream yielded by another task while consumed (yield+next): \(Int(concurrent.rounded())) ns per element",
        ]
        var extra = ["concurrent_stream_ns_per_element": (concurrent * 100).rounded() / 100]
        if let reference {
            let part = measure(operations: n) { blockingRun { blackHole(reference.body(n)) } }
            notes.append("\(reference.description): \(Int(part.rounded())) ns per element, \(ratioText(part / floor)) of the floor")
            extra["\(reference.name)_ns_per_element"] = (part * 100).rounded() / 100
        }
        return BenchResult(nsPerOp: figure, baselineNsPerOp: floor, notes: notes, extra: extra)
    }
}

/// A ratio as the notes print it: "1.23x".
private func ratioText(_ ratio: Double) -> String { "\((ratio * 100).rounded() / 100)x" }

/// The floor: an `AsyncStream` filled with n elements, then consumed with `for await`.
private func measureStreamFloor(_ n: Int) -> Double {
    measure(operations: n) {
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
}

/// An `AsyncStream` fed by another task while it is consumed: the channel's closest stream twin.
private func concurrentStreamSum(_ n: Int) async -> Int {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    let producer = Task {
        for value in 0..<n { continuation.yield(value) }
        continuation.finish()
    }
    var sum = 0
    for await value in stream { sum &+= value }
    await producer.value
    return sum
}

/// Runs `body` in a task and blocks the calling (non-pool) thread until it returns.
private func blockingRun(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// The integers 0..<count as an async sequence that never suspends (`.async` belongs to another
/// part of issue 42).
private struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let count: Int

    func makeAsyncIterator() -> Iterator { Iterator(count: count) }

    struct Iterator: AsyncIteratorProtocol {
        let count: Int
        var current = 0

        mutating func next() async -> Int? {
            guard current < count else { return nil }
            defer { current += 1 }
            return current
        }
    }
}
