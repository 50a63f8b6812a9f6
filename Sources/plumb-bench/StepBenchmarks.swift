import Foundation
import Reactive

/// Cases of the step engine (the wrapping subscription behind `count`, `reduce`, `collect`,
/// `tryMap`, `tryFilter` and ~30 more), each measured against the non-inlined closure floor of the
/// same run.
let stepBenchmarks: [BenchCase] = [
    BenchCase(
        name: "step-engine", summary: "(1...N).publisher | count() | sink, per element; baseline: the non-inlined closure floor"
    ) {
        let n = 2_000_000
        let floor = closureFloor(n: n)
        let count = measure(operations: n) {
            let total = Total()
            let c = streamed((1...n).publisher).count().sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        let scan = measure(operations: n) {
            let total = Total()
            let c = streamed((1...n).publisher).scan(0) { $0 &+ $1 }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        let reduce = measure(operations: n) {
            let total = Total()
            let c = streamed((1...n).publisher).reduce(0) { $0 &+ $1 }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        let removeDuplicates = measure(operations: n) {
            let total = Total()
            // Every other value repeats the one before it, so half are dropped (and re-requested).
            let c = streamed((1...n).publisher).map { $0 >> 1 }.removeDuplicates().sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        let collectCount = n / 10
        let collect = measure(operations: collectCount) {
            let total = Total()
            let c = streamed((1...collectCount).publisher).collect().sink { total.value &+= $0.count }
            blackHole(total.value)
            c.cancel()
        }
        func ratio(_ cost: Double) -> Double { (cost / floor * 1000).rounded() / 1000 }
        func rounded(_ cost: Double) -> Double { (cost * 100).rounded() / 100 }
        return BenchResult(
            nsPerOp: count, baselineNsPerOp: floor,
            notes: [
                "target: each within 4x the floor",
                String(
                    format: "per element: scan %.2f ns (%.2fx), reduce %.2f ns (%.2fx), removeDuplicates %.2f ns (%.2fx), collect %.2f ns (%.2fx)",
                    scan, scan / floor, reduce, reduce / floor, removeDuplicates, removeDuplicates / floor, collect, collect / floor),
            ],
            extra: [
                "scan_ns_per_op": rounded(scan), "scan_ratio": ratio(scan),
                "reduce_ns_per_op": rounded(reduce), "reduce_ratio": ratio(reduce),
                "remove_duplicates_ns_per_op": rounded(removeDuplicates), "remove_duplicates_ratio": ratio(removeDuplicates),
                "collect_ns_per_op": rounded(collect), "collect_ratio": ratio(collect),
            ])
    },
    BenchCase(
        name: "trychain",
        summary: "(1...N).publisher | tryMap { $0 * 3 } | tryFilter { $0 % 2 == 0 } | sink, per element; baseline: the non-inlined closure floor"
    ) {
        // The case and its floor alternate in short rounds (`measurePaired`): 60 rounds of 200,000
        // elements each, the 12 million of the five 2M repetitions and warm-up before.
        let n = 200_000
        let measured = measureAgainstClosureFloor(n: n, rounds: 59) {
            let total = Total()
            let c = (1...n).publisher
                .tryMap { $0 &* 3 }
                .tryFilter { $0 % 2 == 0 }
                .sink(receiveCompletion: { _ in }, receiveValue: { total.value &+= $0 })
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(
            nsPerOp: measured.cost, baselineNsPerOp: measured.floor,
            notes: [
                "target: under 3x the floor",
                String(format: "median of the rounds' own ratios: %.2fx", measured.roundRatioMedian),
            ],
            extra: ["round_ratio_median": measured.roundRatioMedian])
    },
]
