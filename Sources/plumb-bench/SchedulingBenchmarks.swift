import Dispatch
import Foundation
import Reactive

/// Cases of the scheduling-and-combining part of the performance issue: `receive(on:)` against
/// one `queue.async` per value, and `zip`/`combineLatest` against the two subject sends they
/// are made of. Each baseline is measured in the same run.
let schedulingBenchmarks: [BenchCase] = [
    BenchCase(
        name: "receive-on",
        summary: "subject.receive(on: serial DispatchQueue).sink, N values sent then waited for, per value; baseline: one queue.async per value",
        run: { measureReceiveOn() }),
    BenchCase(
        name: "zip",
        summary: "a.zip(b).sink with a.send(i); b.send(i), per pair; baseline: the two PassthroughSubject sends alone, each into a plain sink",
        run: { measureCombiner(zip: true) }),
    BenchCase(
        name: "combine-latest",
        summary: "a.combineLatest(b).sink with a.send(i); b.send(i), per pair; baseline: the two PassthroughSubject sends alone, each into a plain sink",
        run: { measureCombiner(zip: false) }),
]

/// CPU time of the whole process (all threads), in nanoseconds.
private func processCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Like `measure`, but also returns the CPU time (all threads) per operation of the fastest
/// repetition: a hop to another thread costs CPU on both sides, which wall time hides.
private func measureWithCPU(operations: Int, repetitions: Int = 5, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    body()
    var best = (wall: Double.infinity, cpu: Double.infinity)
    for _ in 0..<repetitions {
        let cpuStart = processCPUNanoseconds()
        let start = nowNanoseconds()
        body()
        let wall = Double(nowNanoseconds() - start) / Double(operations)
        let cpu = Double(processCPUNanoseconds() - cpuStart) / Double(operations)
        if wall < best.wall { best = (wall, cpu) }
    }
    return best
}

/// The running total a queue's blocks add into.
private final class QueueTotal: @unchecked Sendable {
    // @unchecked: only the serial queue's blocks write it; it is read after the semaphore that the last block signals.
    @exclusivity(unchecked) var value = 0
}

private func measureReceiveOn() -> BenchResult {
    let n = 200_000
    let queue = DispatchQueue(label: "plumb-bench.receive-on")
    let baseline = measureWithCPU(operations: n) {
        let total = QueueTotal()
        let done = BlockingBox()
        for i in 0..<n { queue.async { total.value &+= i } }
        queue.async { done.signal() }
        done.wait()
        blackHole(total.value)
    }
    var complete = true
    let cost = measureWithCPU(operations: n) {
        let total = QueueTotal()
        let done = BlockingBox()
        let subject = PassthroughSubject<Int, Never>()
        let c = subject.receive(on: queue).sink(receiveCompletion: { _ in done.signal() }, receiveValue: { total.value &+= $0 })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        if total.value != n * (n - 1) / 2 { complete = false }
        c.cancel()
    }
    guard complete else {
        return BenchResult(nsPerOp: .nan, baselineNsPerOp: baseline.wall, notes: ["receive(on:) did not deliver every value; no figure"])
    }
    func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    return BenchResult(
        nsPerOp: cost.wall, baselineNsPerOp: baseline.wall,
        notes: [
            "target: at or below one queue.async per value (ratio <= 1); N = \(n)",
            "CPU (all threads) per value: \(String(format: "%.0f", cost.cpu)) ns; baseline \(String(format: "%.0f", baseline.cpu)) ns",
        ],
        extra: ["cpu_ns_per_op": rounded(cost.cpu), "baseline_cpu_ns_per_op": rounded(baseline.cpu)])
}

private func measureCombiner(zip: Bool) -> BenchResult {
    let n = 500_000
    let baseline = measure(operations: n) {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let total = Total()
        let ca = a.sink { total.value &+= $0 }
        let cb = b.sink { total.value &+= $0 }
        for i in 0..<n {
            a.send(i)
            b.send(i)
        }
        blackHole(total.value)
        ca.cancel()
        cb.cancel()
    }
    let cost = measure(operations: n) {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let total = Total()
        let c: AnyCancellable
        if zip {
            c = a.zip(b).sink { total.value &+= $0.0 &+ $0.1 }
        } else {
            c = a.combineLatest(b).sink { total.value &+= $0.0 &+ $0.1 }
        }
        for i in 0..<n {
            a.send(i)
            b.send(i)
        }
        blackHole(total.value)
        c.cancel()
    }
    return BenchResult(
        nsPerOp: cost, baselineNsPerOp: baseline,
        notes: ["target: under 4x the two subject sends alone; N = \(n) pairs"])
}
