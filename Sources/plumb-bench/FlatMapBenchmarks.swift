import Foundation
import Reactive

/// The merging operators one at a time (`flatmap` measures two of them in one case), each against
/// the closure floor of the same run: a non-inlined step and a non-inlined consumer per element.
let flatMapBenchmarks: [BenchCase] = [
    BenchCase(
        name: "flatmap-max1",
        summary: "(1...N).publisher | flatMap(maxPublishers: .max(1)) { Just($0) } | sink, per element; baseline: the closure floor"
    ) {
        let n = 500_000
        let floor = mergeFloor(n: n)
        let cost = measure(operations: n) {
            let total = Total()
            let c = (1...n).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(nsPerOp: cost, baselineNsPerOp: floor, notes: ["target: within 8x the floor"])
    },
    BenchCase(
        name: "merge-two",
        summary: "a.merge(with: b) of two (1...N/2).publisher, per element; baseline: the closure floor"
    ) {
        let n = 500_000
        let floor = mergeFloor(n: n)
        let cost = measure(operations: n) {
            let total = Total()
            // `streamed` gives the two inputs different types: `Publishers.Merge`, not `MergeMany`.
            let c = streamed((1...(n / 2)).publisher).merge(with: (1...(n / 2)).publisher).sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(nsPerOp: cost, baselineNsPerOp: floor, notes: ["target: within 8x the floor"])
    },
    BenchCase(
        name: "flatmap-inner",
        summary: "(1...N).publisher | flatMap { [$0].publisher } | sink, per element (a real inner subscription); baseline: the closure floor"
    ) {
        let n = 100_000
        let floor = mergeFloor(n: n)
        let cost = measure(operations: n) {
            let total = Total()
            let c = (1...n).publisher.flatMap { [$0].publisher }.sink { total.value &+= $0 }
            blackHole(total.value)
            c.cancel()
        }
        return BenchResult(nsPerOp: cost, baselineNsPerOp: floor, notes: ["target: within 40x the floor"])
    },
]

/// The `flatmap` case's baseline: a non-inlined step and a non-inlined consumer per element.
private func mergeFloor(n: Int) -> Double {
    let step = opaque { (x: Int) -> Int in x &+ 1 }
    return measure(operations: n) {
        let total = Total()
        let sink = opaqueConsumer { (v: Int) in total.value &+= v }
        for i in 1...n { sink(step(i)) }
        blackHole(total.value)
    }
}
