import PlumbDiagrams

/// Milliseconds as the run's nanoseconds.
func ms(_ value: Double) -> Int64 { Int64(value * 1_000_000) }

extension MarbleRun {
    /// Records a value whose text is `text`.
    mutating func value(_ text: String, lane: Int, at time: Int64) {
        record(.value(MarbleValue(text: text)), lane: lane, at: time)
    }

    /// The example: `interval 100ms | take 4 | map { $0 * 2 } | filter { $0 > 2 }` on the
    /// virtual clock, where take's fourth value cancels the interval.
    static var example: MarbleRun {
        var run = MarbleRun()
        let interval = run.addLane(label: "interval 100ms")
        let take = run.addLane(label: "take 4")
        let map = run.addLane(label: "map { $0 * 2 }")
        let filter = run.addLane(label: "filter { $0 > 2 }")
        for lane in [interval, take, map, filter] { run.record(.subscribed, lane: lane, at: 0) }
        for n in 0..<4 {
            let t = ms(Double(100 * (n + 1)))
            run.value("\(n)", lane: interval, at: t)
            run.value("\(n)", lane: take, at: t)
            run.value("\(n * 2)", lane: map, at: t)
            if n * 2 > 2 { run.value("\(n * 2)", lane: filter, at: t) }
        }
        let end = ms(400)
        run.record(.finished, lane: filter, at: end)
        run.record(.finished, lane: map, at: end)
        run.record(.finished, lane: take, at: end)
        run.record(.cancelled, lane: interval, at: end)
        return run
    }
}

/// The lines as one string, for `#expect` messages that show the whole diagram.
func joined(_ lines: [String]) -> String { "\n" + lines.joined(separator: "\n") + "\n" }
