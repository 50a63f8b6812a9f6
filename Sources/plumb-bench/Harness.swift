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
