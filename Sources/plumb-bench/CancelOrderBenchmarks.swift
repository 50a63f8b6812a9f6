import Foundation
import Reactive

/// The `cancel-order` case: cancelling every one of a subject's live sinks, in the order they
/// subscribed and in a random order, at 100 and at 100k live.
let cancelOrderBenchmarks: [BenchCase] = [
    BenchCase(
        name: "cancel-order",
        summary: "PassthroughSubject with 100k live sinks, cancel every one, per cancel, in random order; baseline: the same in subscription order",
        run: { measureCancelOrder() })
]

/// The nanoseconds per cancel of `live` sinks cancelled in subscription order, or shuffled.
private func cancelAll(live: Int, shuffled: Bool) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(live)
    for _ in 0..<live { cancellables.append(subject.sink { total.value &+= $0 }) }
    subject.send(1)
    if shuffled {
        // A fixed xorshift-driven Fisher-Yates shuffle, so every run cancels in the same order.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in stride(from: cancellables.count - 1, to: 0, by: -1) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            cancellables.swapAt(i, Int(state % UInt64(i + 1)))
        }
    }
    let start = nowNanoseconds()
    for c in cancellables { c.cancel() }
    let elapsed = Double(nowNanoseconds() - start) / Double(live)
    blackHole(total.value)
    return elapsed
}

private func measureCancelOrder() -> BenchResult {
    _ = cancelAll(live: 10_000, shuffled: true)  // warm-up: grow the heap
    var best: [String: Double] = [:]
    for _ in 0..<3 {
        for (key, live, shuffled) in [("ordered_100", 100, false), ("random_100", 100, true), ("ordered_100k", 100_000, false), ("random_100k", 100_000, true)]
        {
            // At 100 live, repeat to time more than a few microseconds.
            let repeats = live == 100 ? 200 : 1
            var sum = 0.0
            for _ in 0..<repeats { sum += cancelAll(live: live, shuffled: shuffled) }
            best[key] = min(best[key] ?? .infinity, sum / Double(repeats))
        }
    }
    let random = best["random_100k"]!, ordered = best["ordered_100k"]!, small = best["random_100"]!
    return BenchResult(
        nsPerOp: random, baselineNsPerOp: ordered,
        notes: [
            "target: random order at 100k within 1.5x of the 100-subscriber figure",
            String(
                format: "per cancel: random %.1f ns, ordered %.1f ns at 100k; random %.1f ns, ordered %.1f ns at 100 (random 100k / random 100: %.2fx)",
                random, ordered, small, best["ordered_100"]!, random / small),
        ],
        extra: best.mapValues { ($0 * 100).rounded() / 100 })
}
