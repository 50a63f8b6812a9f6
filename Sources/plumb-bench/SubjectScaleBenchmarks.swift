import Foundation
import Reactive

/// The `subject-scale` case: what subscribing, sending and cancelling cost as a subject's number
/// of live subscribers grows, and the memory of 100k live `subject.map.filter.sink` chains.
let subjectScaleBenchmarks: [BenchCase] = [
    BenchCase(
        name: "subject-scale",
        summary:
            "PassthroughSubject with 100, 10k and 100k live sinks: per-op cost of subscribe, send (per delivery) and cancel (of a random one); ratio = the worst of the three at 100k / at 100",
        run: { measureSubjectScale() })
]

/// The hidden flag that makes plumb-bench the child process measuring peak RSS (see below).
let subjectScaleRSSChildFlag = "--subject-scale-rss-child"

private let scaleSizes = [100, 10_000, 100_000]

/// A small deterministic generator (xorshift), so every run cancels the same subscribers.
private struct ScaleRandom {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
}

/// What one size measured, in nanoseconds per operation.
private struct ScaleCosts {
    var subscribe = Double.infinity
    /// Per delivery: a send's time divided by the subscribers it reached, with the subscribers
    /// in memory in the order they subscribed.
    var send = Double.infinity
    /// The same after the subscribe and cancel rounds have scattered some of them (at 100 live,
    /// all of them) through the heap.
    var sendChurned = Double.infinity
    /// Cancelling a subscriber picked at random among all the live ones (most of them long
    /// untouched: at 100k their objects are out of the caches).
    var cancel = Double.infinity
    /// Cancelling the subscribers that just subscribed, in random order (still in the caches):
    /// the subject's own work without the cost of reaching a cold subscriber.
    var cancelRecent = Double.infinity
}

/// Per-op costs with `live` subscribers.
private func measureScale(live: Int) -> ScaleCosts {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(live + 1_000)
    for _ in 0..<live { cancellables.append(subject.sink { total.value &+= $0 }) }

    // Each round: subscribe `batch` more; cancel them in random order; cancel `batch` picked at
    // random among all; subscribe `batch` again (untimed), so the population is back to `live`.
    // The best of several rounds.
    let batch = 1_000
    var random = ScaleRandom()
    var costs = ScaleCosts()
    /// Times cancelling `count` cancellables taken from `cancellables[range]` in random order.
    func cancelBatch(_ count: Int, from range: Range<Int>) -> Double {
        // Picking and moving the cancellables out of the array is not timed: only the cancels.
        var victims: [AnyCancellable] = []
        victims.reserveCapacity(count)
        var end = range.upperBound
        for _ in 0..<count {
            let index = range.lowerBound + random.next(below: end - range.lowerBound)
            cancellables.swapAt(index, end - 1)
            end -= 1
        }
        victims.append(contentsOf: cancellables[end..<range.upperBound])
        cancellables.removeSubrange(end..<range.upperBound)
        let start = nowNanoseconds()
        for victim in victims { victim.cancel() }
        let elapsed = Double(nowNanoseconds() - start) / Double(count)
        blackHole(victims)
        return elapsed
    }
    // Sends first, while the subscribers lie in memory in the order they subscribed (as the
    // floor's do): about a million deliveries in all at every size.
    let sends = max(10, 1_000_000 / live)
    costs.send = measure(operations: sends * live, repetitions: 5) {
        for i in 0..<sends { subject.send(i) }
    }
    for _ in 0..<7 {
        let start = nowNanoseconds()
        for _ in 0..<batch { cancellables.append(subject.sink { total.value &+= $0 }) }
        costs.subscribe = min(costs.subscribe, Double(nowNanoseconds() - start) / Double(batch))
        costs.cancelRecent = min(costs.cancelRecent, cancelBatch(batch, from: (cancellables.count - batch)..<cancellables.count))
        // With 100 live, all 100 (in random order).
        let picked = min(batch, live)
        costs.cancel = min(costs.cancel, cancelBatch(picked, from: 0..<cancellables.count))
        for _ in 0..<picked { cancellables.append(subject.sink { total.value &+= $0 }) }
    }

    costs.sendChurned = measure(operations: sends * live, repetitions: 5) {
        for i in 0..<sends { subject.send(i) }
    }
    blackHole(total.value)
    for c in cancellables { c.cancel() }
    return costs
}

/// The same subscribers without a subject: `live` sinks given a value by a plain loop, and some
/// cancelled directly. What merely reaching that many separate subscribers costs (their objects
/// leave the caches as `live` grows), to set the subject's figures against.
private func measureFloor(live: Int) -> (send: Double, cancel: Double) {
    let total = Total()
    var sinks: [Subscribers.Sink<Int, Never>] = []
    sinks.reserveCapacity(live)
    for _ in 0..<live {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { total.value &+= $0 })
        sink.receive(subscription: Subscriptions.empty)
        sinks.append(sink)
    }
    let sends = max(10, 1_000_000 / live)
    let send = measure(operations: sends * live, repetitions: 5) {
        sinks.withUnsafeBufferPointer { all in
            for i in 0..<sends {
                for sink in all { _ = sink.receive(i) }
            }
        }
    }
    var random = ScaleRandom()
    var cancel = Double.infinity
    for _ in 0..<5 {
        let count = min(1_000, live)
        var victims: [Subscribers.Sink<Int, Never>] = []
        victims.reserveCapacity(count)
        for _ in 0..<count {
            let index = random.next(below: sinks.count)
            sinks.swapAt(index, sinks.count - 1)
            victims.append(sinks.removeLast())
        }
        let start = nowNanoseconds()
        for victim in victims { victim.cancel() }
        cancel = min(cancel, Double(nowNanoseconds() - start) / Double(count))
        blackHole(victims)
        for _ in 0..<count {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { total.value &+= $0 })
            sink.receive(subscription: Subscriptions.empty)
            _ = sink.receive(0)
            sinks.append(sink)
        }
    }
    blackHole(total.value)
    return (send, cancel)
}

private func measureSubjectScale() -> BenchResult {
    // A warm-up round first: the first subscribers of a process pay for growing the heap. Then
    // the sizes in the order 100, 10k, 100k, 100k, 10k, 100, each keeping its best: this machine
    // runs at one of two speeds for seconds at a time, and the ratios compare sizes.
    _ = measureScale(live: scaleSizes[0])
    var results = scaleSizes.map { measureScale(live: $0) }
    for (index, size) in scaleSizes.enumerated().reversed() {
        let again = measureScale(live: size)
        results[index].subscribe = min(results[index].subscribe, again.subscribe)
        results[index].send = min(results[index].send, again.send)
        results[index].sendChurned = min(results[index].sendChurned, again.sendChurned)
        results[index].cancel = min(results[index].cancel, again.cancel)
        results[index].cancelRecent = min(results[index].cancelRecent, again.cancelRecent)
    }
    let floors = [scaleSizes[0], scaleSizes[2]].map { measureFloor(live: $0) }
    let small = results[0]
    let large = results[2]
    let ratios = [
        ("subscribe", large.subscribe / small.subscribe, large.subscribe, small.subscribe),
        ("send", large.send / small.send, large.send, small.send),
        ("cancel", large.cancel / small.cancel, large.cancel, small.cancel),
    ]
    let worst = ratios.max { $0.1 < $1.1 }!
    var notes = ["target: each of subscribe, send per delivery and cancel at 100k within 2x of its cost at 100; peak RSS at or below 70 MB"]
    func row(_ name: String, _ pick: (ScaleCosts) -> Double) -> String {
        name.padding(toLength: 14, withPad: " ", startingAt: 0)
            + results.map { String(format: "%9.1f", pick($0)) }.joined(separator: " ") + " ns"
    }
    notes.append("live:          " + scaleSizes.map { String(format: "%9d", $0) }.joined(separator: " "))
    notes.append(row("subscribe", { $0.subscribe }))
    notes.append(row("send", { $0.send }))
    notes.append(row("send churned", { $0.sendChurned }))
    notes.append(row("cancel", { $0.cancel }))
    notes.append(row("cancel recent", { $0.cancelRecent }))
    notes.append(
        "send: per delivery, subscribers in memory in subscription order; send churned: the same after the subscribe/cancel rounds (7,000 of 100k, all of 100, resubscribed). "
            + String(format: "Churned at 100k / at 100: %.2fx", large.sendChurned / small.sendChurned))
    notes.append(
        "cancel: one picked at random among all the live subscribers; cancel recent: the 1,000 just subscribed, in random order (warm in the caches). "
            + String(format: "Recent at 100k / at 100: %.2fx", large.cancelRecent / small.cancelRecent))
    notes.append(
        String(
            format:
                "floor, the same sinks without a subject (called, cancelled directly): send %.1f ns at 100, %.1f at 100k (%.2fx); cancel %.1f ns at 100, %.1f at 100k (%.2fx)",
            floors[0].send, floors[1].send, floors[1].send / floors[0].send, floors[0].cancel, floors[1].cancel, floors[1].cancel / floors[0].cancel))
    notes.append("ns_per_op is the worst of the three at 100k (\(worst.0)), baseline the same at 100")
    let rss = measurePeakRSS()
    notes.append(rss.note)
    return BenchResult(
        nsPerOp: worst.2, baselineNsPerOp: worst.3, notes: notes,
        extra: [
            "subscribe_ns_100k": large.subscribe, "send_ns_100k": large.send, "cancel_ns_100k": large.cancel,
            "subscribe_ns_100": small.subscribe, "send_ns_100": small.send, "cancel_ns_100": small.cancel,
            "send_churned_ns_100k": large.sendChurned, "send_churned_ns_100": small.sendChurned,
            "cancel_recent_ns_100k": large.cancelRecent, "cancel_recent_ns_100": small.cancelRecent,
            "send_floor_ns_100": floors[0].send, "send_floor_ns_100k": floors[1].send,
            "cancel_floor_ns_100": floors[0].cancel, "cancel_floor_ns_100k": floors[1].cancel,
            "peak_rss_mb_100k": rss.megabytes,
        ])
}

/// Peak RSS of a fresh plumb-bench process that does nothing but subscribe 100k
/// `subject.map.filter.sink` chains and send one value (`runSubjectScaleRSSChild`).
private func measurePeakRSS() -> (megabytes: Double, note: String) {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let output = ShellBench.capture(executable, [subjectScaleRSSChildFlag])
    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count == 3 else {
        return (.nan, "peak RSS: the child process reported nothing (no /proc/self/status?): \(output.prefix(80))")
    }
    let (floor, peak, delivered) = (fields[0] / 1024, fields[1] / 1024, fields[2])
    return (
        peak,
        String(
            format:
                "peak RSS (VmHWM) of a process holding 100k live subject.map.filter.sink after one send: %.1f MB (%.1f MB before subscribing; %.0f values delivered)",
            peak, floor, delivered)
    )
}

/// The kilobytes of a field of /proc/self/status ("VmHWM", "VmRSS"), or nil.
private func procStatusKilobytes(_ field: String) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
    }
    return nil
}

/// The child side of `measurePeakRSS`: prints the peak RSS in kB before and after, and the count of
/// values delivered. Run by plumb-bench with `subjectScaleRSSChildFlag`, before anything else.
func runSubjectScaleRSSChild() -> Never {
    let floor = procStatusKilobytes("VmHWM") ?? .nan
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(100_000)
    for _ in 0..<100_000 {
        cancellables.append(subject.map { $0 &+ 1 }.filter { $0 % 2 == 0 }.sink { _ in total.value &+= 1 })
    }
    subject.send(1)
    let peak = procStatusKilobytes("VmHWM") ?? .nan
    print(floor, peak, total.value)
    blackHole(cancellables)
    exit(0)
}
