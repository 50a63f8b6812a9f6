import Reactive

/// Cases (a)–(e) of the core issue. Each baseline is measured in the same run.
let coreBenchmarks: [BenchCase] = [
    BenchCase(name: "chain", summary: "(1...N).publisher | map { $0 * 3 } | filter { $0 % 2 == 0 } | sink, per element; baseline: a loop calling a non-inlined closure per element") {
        let n = 2_000_000
        let step = opaque { (x: Int) -> Int in x &* 3 }
        let baseline = measure(operations: n) {
            // The same work as the pipeline: a non-inlined map step, the filter, and a non-inlined
            // consumer that adds into a captured variable, as the sink closure does.
            var total = 0
            let consume: (Int) -> Void = { total &+= $0 }
            let sink = opaqueConsumer(consume)
            for i in 1...n {
                let v = step(i)
                if v % 2 == 0 { sink(v) }
            }
            blackHole(total)
        }
        let cost = measure(operations: n) {
            var total = 0
            let c = (1...n).publisher
                .map { $0 &* 3 }
                .filter { $0 % 2 == 0 }
                .sink { total &+= $0 }
            blackHole(total)
            c.cancel()
        }
        return BenchResult(nsPerOp: cost, baselineNsPerOp: baseline, notes: ["target: under 5x the baseline"])
    },
    BenchCase(name: "asyncstream", summary: "AsyncStream yield + for await over N values, per element (reference point)") {
        let n = 200_000
        let cost = measure(operations: n, repetitions: 3) {
            let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
            let done = BlockingBox()
            Task {
                var total = 0
                for await v in stream { total &+= v }
                blackHole(total)
                done.signal()
            }
            for i in 0..<n { continuation.yield(i) }
            continuation.finish()
            done.wait()
        }
        return BenchResult(nsPerOp: cost, baselineNsPerOp: nil, notes: ["reference: about 1,000 to 1,700 ns per element on this machine"])
    },
]
