/// Chooses the time per column and where each column goes.
///
/// The step starts from half the shortest gap between two events of one lane (so consecutive
/// events have a `-` between them; gaps under 0.5% of the run, or 100 µs, count as the same
/// instant: that is a real clock's noise between stages), divides the lanes' period when they
/// have one, and grows through round steps (1, 2, 2.5, 5 × 10ⁿ ns) until the lanes fit. Columns are sparse: only columns with events and the
/// idle stretches between them are looked at, so a 10 s run at 1 µs costs what its events cost.
struct ColumnFitter {
    let plan: LanePlan
    let end: Int64

    /// Idle stretches this long (in columns) or longer collapse into their duration.
    static let collapseAt: Int64 = 10

    func column(of time: Int64, step: Int64) -> Int64 {
        (time + step / 2) / step
    }

    /// The round step the diagram would like: about half the shortest real gap in a lane, and,
    /// when the lanes have a period (most of their gaps are one length), a step that divides
    /// that period, so a periodic source draws with equal dashes between its ticks.
    ///
    /// Gaps under the noise floor are one instant; so are gaps under an eighth of the median
    /// gap, so that one value and finish 3 ms apart on a late timer do not force 1 ms columns
    /// on a run of 100 ms ticks (they draw as a group instead).
    func preferredStep(available: Int) -> Int64 {
        let gaps = realGaps()
        guard !gaps.isEmpty else {
            // Everything happened at about one instant, or in steps too small to draw apart.
            return TimeScale.step(atLeast: max(2 * noise, end / Int64(max(available, 1))))
        }
        let floor = gaps[gaps.count / 2] / 8
        let shortest = gaps.first(where: { $0 >= floor }) ?? gaps[0]
        let near = TimeScale.step(near: max(1, shortest / 2))
        guard let period = period(of: gaps) else { return near }
        return TimeScale.steps.last(where: { $0 <= near && Self.divides($0, period) }) ?? near
    }

    /// Gaps under this are one instant: a real clock's noise between stages.
    private var noise: Int64 { max(end / 200, 100_000) }

    /// The gaps between consecutive events of each lane above the noise floor, sorted.
    private func realGaps() -> [Int64] {
        let noise = self.noise
        var gaps: [Int64] = []
        for lane in plan.lanes {
            for i in lane.times.indices.dropFirst() {
                let gap = lane.times[i] - lane.times[i - 1]
                if gap > noise { gaps.append(gap) }
            }
        }
        return gaps.sorted()
    }

    /// The lanes' period: the gap length (within 5%, a real clock's jitter) that at least half
    /// of the gaps have, when there are at least three such gaps.
    func period(of sortedGaps: [Int64]) -> Int64? {
        var best: (count: Int, value: Int64)?
        var start = 0
        for i in sortedGaps.indices {
            while sortedGaps[i] - sortedGaps[start] > sortedGaps[start] / 20 { start += 1 }
            let count = i - start + 1
            if count > (best?.count ?? 0) { best = (count, sortedGaps[(start + i) / 2]) }
        }
        guard let best, best.count >= 3, best.count * 2 >= sortedGaps.count else { return nil }
        return best.value
    }

    /// Whether columns of `step` draw ticks `period` apart evenly: the period is a whole number
    /// of steps, or the step a whole number of periods.
    static func divides(_ step: Int64, _ period: Int64) -> Bool {
        let ratio = step <= period ? Double(period) / Double(step) : Double(step) / Double(period)
        return abs(ratio - ratio.rounded()) < 0.1
    }

    /// The finest round step, from the preferred one up, whose lanes fit in `available` columns;
    /// when the lanes have a period, the finest fitting step that keeps it even, unless that is
    /// more than 5 times coarser than the finest fitting one.
    func fit(available: Int) -> Int64 {
        var step = preferredStep(available: available)
        let period = period(of: realGaps())
        var firstFit: Int64?
        while true {
            let even = period.map { Self.divides(step, $0) } ?? true
            if (even || firstFit == nil) && width(step: step, limit: available) <= available {
                if even { return step }
                firstFit = step
            }
            let next = TimeScale.coarser(than: step)
            if next == step || step > 4 * max(end, 1) || firstFit.map({ next > 5 * $0 }) == true { break }
            step = next
        }
        return firstFit ?? step
    }

    /// The label of an idle stretch of `count` columns, when it collapses.
    func gapText(count: Int64, step: Int64) -> String? {
        guard count >= Self.collapseAt else { return nil }
        let text = " " + TimeScale.durationText(count * step) + " "
        return Int64(text.count + 2) < count ? text : nil
    }

    private func idleWidth(count: Int64, step: Int64) -> Int64 {
        gapText(count: count, step: step).map { Int64($0.count + 2) } ?? count
    }

    private static func cellWidth(count: Int, leadsWithSubscription: Bool) -> Int {
        if count == 1 { return 1 }
        let lead = leadsWithSubscription ? 1 : 0
        let rest = count - lead
        if rest == 1 { return 2 }
        return lead + (rest <= MarbleLayout.groupLimit ? rest + 2 : 5)
    }

    /// Occupied columns, sorted, each with its widest cell, packed as `column << 4 | width`.
    private func occupied(step: Int64) -> [Int64] {
        var packed: [Int64] = []
        packed.reserveCapacity(plan.lanes.reduce(0) { $0 + $1.times.count })
        for lane in plan.lanes {
            var i = 0
            let times = lane.times
            while i < times.count {
                let here = column(of: times[i], step: step)
                var j = i + 1
                while j < times.count && column(of: times[j], step: step) == here { j += 1 }
                let width = Self.cellWidth(count: j - i, leadsWithSubscription: lane.events[i] == .subscribed)
                packed.append(here << 4 | Int64(width))
                i = j
            }
        }
        packed.sort()
        // Keep one entry per column: the last of a column's run is its widest.
        var out: [Int64] = []
        out.reserveCapacity(packed.count)
        for (k, value) in packed.enumerated() where k == packed.count - 1 || packed[k + 1] >> 4 != value >> 4 {
            out.append(value)
        }
        return out
    }

    private func lastColumn(step: Int64, occupied: [Int64]) -> Int64 {
        max(column(of: end, step: step), occupied.last.map { $0 >> 4 } ?? 0)
    }

    /// The lanes' width at `step`, stopping early once it passes `limit`.
    func width(step: Int64, limit: Int) -> Int {
        let occupied = occupied(step: step)
        var total: Int64 = 0
        var previous: Int64 = -1
        for value in occupied {
            let column = value >> 4
            total += idleWidth(count: column - previous - 1, step: step) + (value & 0xF)
            if total > Int64(limit) { return Int(min(total, Int64(Int32.max))) }
            previous = column
        }
        total += idleWidth(count: lastColumn(step: step, occupied: occupied) - previous, step: step)
        return Int(min(total, Int64(Int32.max)))
    }

    /// Where the columns go at `step`.
    struct Columns {
        /// Offset of each occupied column.
        var offset: [Int64: Int] = [:]
        var gaps: [MarbleLayout.Gap] = []
        /// Runs of idle columns drawn one by one: first column, count, offset.
        var plain: [(column: Int64, count: Int64, offset: Int)] = []
        var occupiedColumns: [(column: Int64, offset: Int)] = []
        var width = 0

        /// Columns that are multiples of `every` and drawn as themselves, with their offsets.
        func plainColumns(every: Int64) -> [(Int64, Int)] {
            var out: [(Int64, Int)] = []
            var p = 0
            var o = 0
            // Merge the two sorted lists.
            while p < plain.count || o < occupiedColumns.count {
                if o == occupiedColumns.count || (p < plain.count && plain[p].column < occupiedColumns[o].column) {
                    let run = plain[p]
                    var c = (run.column + every - 1) / every * every
                    while c < run.column + run.count {
                        out.append((c, run.offset + Int(c - run.column)))
                        c += every
                    }
                    p += 1
                } else {
                    let c = occupiedColumns[o]
                    if c.column % every == 0 { out.append((c.column, c.offset)) }
                    o += 1
                }
            }
            return out
        }
    }

    func columns(step: Int64) -> Columns {
        let occupied = occupied(step: step)
        var result = Columns()
        result.offset.reserveCapacity(occupied.count)
        var x = 0
        var previous: Int64 = -1
        func idle(from first: Int64, count: Int64) {
            guard count > 0 else { return }
            if let text = gapText(count: count, step: step) {
                result.gaps.append(
                    MarbleLayout.Gap(offset: x, width: text.count + 2, time: first * step, duration: count * step, text: text))
                x += text.count + 2
            } else {
                result.plain.append((first, count, x))
                x += Int(count)
            }
        }
        for value in occupied {
            let column = value >> 4
            idle(from: previous + 1, count: column - previous - 1)
            result.offset[column] = x
            result.occupiedColumns.append((column, x))
            x += Int(value & 0xF)
            previous = column
        }
        idle(from: previous + 1, count: lastColumn(step: step, occupied: occupied) - previous)
        result.width = x
        return result
    }
}
