import Foundation
import Reactive

/// Combine's eager specialisations on `Publishers.Sequence`, against the streaming operators the
/// same code got before them (`streamed` hides the sequence type from the overloads).
let sequenceBenchmarks: [BenchCase] = [
    BenchCase(
        name: "sequence-count", summary: "(1...N).publisher.count() | sink at N = 1,000,000, per call (constant time: a Just); baseline: the same at N = 10"
    ) {
        let calls = 100_000
        func countCost(_ n: Int) -> Double {
            measure(operations: calls) {
                let total = Total()
                for _ in 0..<calls {
                    let c = (1...n).publisher.count().sink { total.value &+= $0 }
                    blackHole(c)
                }
                blackHole(total.value)
            }
        }
        let small = countCost(10)
        let large = countCost(1_000_000)
        let n = 1_000_000
        let streaming = measure(operations: 1, repetitions: 3) {
            let total = Total()
            let c = streamed((1...n).publisher).count().sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(
            nsPerOp: large, baselineNsPerOp: small,
            notes: [
                "target: within 1.5x of the baseline (constant time)",
                String(format: "the streaming count (generic code) over the same 1,000,000 elements: %.0f ns per call", streaming),
            ],
            extra: ["streaming_count_ns_per_call": (streaming * 100).rounded() / 100])
    },
    BenchCase(
        name: "sequence-map",
        summary:
            "array.publisher.map { $0 * 3 }.filter { $0 % 2 == 0 } | sink, eager (Combine's specialisations), per element; baseline: the same chain streaming (generic code)"
    ) {
        let n = 1_000_000
        let numbers = Array(1...n)
        let streaming = measure(operations: n) {
            let total = Total()
            let c = streamed(numbers.publisher).map { $0 &* 3 }.filter { $0 % 2 == 0 }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        let eager = measure(operations: n) {
            let total = Total()
            let c = numbers.publisher.map { $0 &* 3 }.filter { $0 % 2 == 0 }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(nsPerOp: eager, baselineNsPerOp: streaming, notes: ["the eager chain builds two arrays, then streams the second"])
    },
]
