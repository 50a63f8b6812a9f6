import Foundation
import Reactive
import Synchronization

/// One benchmark case: a name, and a closure that measures it and returns the result.
struct BenchCase: Sendable {
    /// The case name used by `--filter` and in the JSON output.
    let name: String
    /// What the case measures, for the text output.
    let summary: String
    /// Runs the case (in the same process, same run as its baseline).
    let run: @Sendable () -> BenchResult
}

/// A measured cost per operation, with the baseline measured in the same run.
struct BenchResult {
    var nsPerOp: Double
    var baselineNsPerOp: Double?
    /// Extra lines for the text output (targets, sizes, scaling figures).
    var notes: [String] = []
    /// Extra figures for the JSON output (e.g. per-unit cost at 1x and 10x).
    var extra: [String: Double] = [:]

    var ratio: Double? { baselineNsPerOp.map { nsPerOp / $0 } }
}

/// Monotonic nanoseconds.
@inline(never)
func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time the calling thread has used, in ns: steadier than the wall clock on a shared machine.
func threadCPUNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// Runs `body` (which performs `operations` operations) `repetitions` times after one warm-up,
/// and returns the best nanoseconds per operation: the minimum is the least noisy estimate.
///
/// Every repetition's figure goes to `RepetitionLog`, so the report can show the spread behind
/// the best (see `RepetitionLog.spread(of:)`).
///
/// A repetition is timed on the wall clock, so it must be short beside a scheduler time slice
/// (a few milliseconds): one that outlasts the slice also counts the time another process on the
/// same core ran meanwhile. A case and its baseline should be measured with repetitions of about
/// the same length, so both get the same chance of a clean one.
func measure(operations: Int, repetitions: Int = 5, _ body: () -> Void) -> Double {
    body()
    var samples: [Double] = []
    samples.reserveCapacity(repetitions)
    for _ in 0..<repetitions {
        let start = nowNanoseconds()
        body()
        let elapsed = Double(nowNanoseconds() - start)
        samples.append(elapsed / Double(operations))
    }
    RepetitionLog.record(samples)
    return samples.min() ?? .nan
}

/// A case and its floor timed in alternating short rounds: the fastest round of each, and the
/// median of the rounds' own ratios.
struct PairedMeasurement {
    /// The case's fastest round, ns per operation.
    var cost: Double
    /// The floor's fastest round, ns per operation.
    var floor: Double
    /// The median over rounds of the case's figure divided by the floor's figure of the same round.
    var roundRatioMedian: Double
}

/// Times `body` (performing `operations` operations) and `floor` (performing `floorOperations`)
/// in `rounds` alternating rounds after one warm-up of each, and returns the fastest round of
/// each with the median of the per-round ratios.
///
/// This machine (a virtual machine) runs the same code at two speeds that switch every few tens
/// of milliseconds, for reasons outside the process: in one process `trychain`'s five 2M-element
/// repetitions read 8.7 to 19.2 ns, and its floor, measured once before them, 2.6 or 4.5 ns
/// depending on the moment (`trychain`'s ratio read 2.5x to 5.0x over twenty single runs). A floor
/// measured in one block and a case in another compare two moments. Here each round is about a
/// millisecond, the two alternate (the order flips every round, so neither always follows the
/// other), and the fastest of many rounds of each is a moment when the machine ran at its fast
/// speed for it; `roundRatioMedian` pairs each case round with the floor round beside it.
func measurePaired(
    rounds: Int, floorOperations: Int, floor: () -> Void, operations: Int, _ body: () -> Void
) -> PairedMeasurement {
    floor()
    body()
    var floorSamples: [Double] = []
    var caseSamples: [Double] = []
    var ratios: [Double] = []
    floorSamples.reserveCapacity(rounds)
    caseSamples.reserveCapacity(rounds)
    ratios.reserveCapacity(rounds)
    func time(_ work: () -> Void, _ count: Int) -> Double {
        let start = nowNanoseconds()
        work()
        return Double(nowNanoseconds() - start) / Double(count)
    }
    for round in 0..<rounds {
        let floorFigure: Double
        let caseFigure: Double
        if round % 2 == 0 {
            floorFigure = time(floor, floorOperations)
            caseFigure = time(body, operations)
        } else {
            caseFigure = time(body, operations)
            floorFigure = time(floor, floorOperations)
        }
        floorSamples.append(floorFigure)
        caseSamples.append(caseFigure)
        ratios.append(caseFigure / floorFigure)
    }
    RepetitionLog.record(floorSamples)
    RepetitionLog.record(caseSamples)
    return PairedMeasurement(
        cost: caseSamples.min() ?? .nan, floor: floorSamples.min() ?? .nan, roundRatioMedian: median(ofSorted: ratios.sorted()))
}

/// The non-inlined closure floor, timed in one block (`measure`): the least a `map`/`filter`/
/// `sink` chain of closures over `1...n` can cost, the baseline of `chain` and `step-engine`.
/// Each repetition is one `closureFloorPass`, the loop `trychain` alternates with.
func closureFloor(n: Int) -> Double {
    measure(operations: n) {
        let total = Total()
        closureFloorPass(n: n, total: total)
        blackHole(total.value)
    }
}

/// One pass of the non-inlined closure floor over `1...n`: per element a call of a non-inlined
/// step (`x * 3`), the filter, and for the even half a call of a non-inlined consumer adding into
/// `total`, as a `map`/`filter`/`sink` chain does. A function of its own, not inlined, so the
/// floor's loop is the same code whichever case measures against it. The closures are made here
/// (two calls and an allocation a pass) and not passed in: a parameter of type `(Int) -> Int`
/// takes `opaque`'s closure through a reabstraction thunk, a second call per call (5.9 ns per
/// element instead of 2.8).
@inline(never)
func closureFloorPass(n: Int, total: Total) {
    let step = opaque { (x: Int) -> Int in x &* 3 }
    let sink = opaqueConsumer { (v: Int) in total.value &+= v }
    for i in 1...n {
        let v = step(i)
        if v % 2 == 0 { sink(v) }
    }
}

/// Measures `body` (a pipeline over `1...n`) against the closure floor over as many elements, in
/// alternating rounds (`measurePaired`).
func measureAgainstClosureFloor(n: Int, rounds: Int, _ body: () -> Void) -> PairedMeasurement {
    let total = Total()
    let measured = measurePaired(rounds: rounds, floorOperations: n, floor: { closureFloorPass(n: n, total: total) }, operations: n, body)
    blackHole(total.value)
    return measured
}

/// One pass of the consumer floor over `0..<n`: a call of a non-inlined consumer closure adding
/// into `total` per value, what a subject's sink does with each value and nothing else. Not
/// inlined, and the closure made here, for the reasons `closureFloorPass` gives.
@inline(never)
func consumerFloorPass(n: Int, total: Total) {
    let sink = opaqueConsumer { (v: Int) in total.value &+= v }
    for i in 0..<n { sink(i) }
}

/// The figures of every repetition `measure` timed during the current case, so the report can
/// show the spread behind a best figure: a case that runs at two speeds shows it.
enum RepetitionLog {
    private static let entries = Mutex<[[Double]]>([])

    static func record(_ samples: [Double]) { entries.withLock { $0.append(samples) } }

    /// Forgets what earlier cases recorded.
    static func reset() { entries.withLock { $0 = [] } }

    /// The fastest, median and slowest repetition of the `measure` call whose best was `best`,
    /// and how many there were; nil if no call returned it.
    static func spread(of best: Double?) -> (fastest: Double, median: Double, slowest: Double, count: Int)? {
        guard let best, best.isFinite else { return nil }
        let samples = entries.withLock { all in all.last { $0.min() == best } }
        guard let sorted = samples?.sorted(), let fastest = sorted.first, let slowest = sorted.last else { return nil }
        return (fastest, median(ofSorted: sorted), slowest, sorted.count)
    }
}

/// The median of values sorted in ascending order.
func median(ofSorted sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// `publisher` as generic code sees it. Combine's eager specialisations on `Publishers.Sequence`
/// (`map`, `filter`, `count` … computed when applied) do not apply to it, so a case that measures
/// the streaming operators over `(1...n).publisher` keeps measuring them.
@inline(__always)
func streamed<P: Publisher>(_ publisher: P) -> some Publisher<P.Output, P.Failure> { publisher }

/// Keeps a value alive and observable so the optimiser cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A closure the optimiser cannot see through, for baselines: one indirect call per element.
@inline(never)
func opaque<T>(_ body: @escaping (T) -> T) -> (T) -> T { body }

/// Waits on a thread until another thread or task signals.
final class BlockingBox: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait() { semaphore.wait() }
}

/// A consumer closure the optimiser cannot see through.
@inline(never)
func opaqueConsumer<T>(_ body: @escaping (T) -> Void) -> (T) -> Void { body }

/// A running total that bench closures (a baseline's consumer, a pipeline's sink) add into.
///
/// A `var` captured by an escaping closure pays a dynamic exclusivity check per access; a sink's
/// own state does not (it is `@exclusivity(unchecked)`), so baselines and pipelines both add into
/// this instead, and cost what they did when the package built with `-enforce-exclusivity=unchecked`.
final class Total {
    // Each case touches it from one thread at a time.
    @exclusivity(unchecked) var value = 0
}
