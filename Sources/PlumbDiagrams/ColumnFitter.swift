/// Chooses the time per column and where each column goes.
///
/// Every column is one step of time and one terminal column: a group's text runs on over its
/// lane's free columns, or is one key letter (`groups(of:step:)`). The step starts from the
/// shortest gap between two events of one lane divided by the width of the group before it plus
/// one (so consecutive events have a `-` between them; gaps under 0.5% of the run, or 100 µs,
/// count as the same instant: that is a real clock's noise between stages), divides the lanes'
/// period when they have one, and grows through round steps (1, 2, 2.5, 5 × 10ⁿ ns) until the
/// lanes fit. Columns are sparse: only columns with events and the idle stretches between them
/// are looked at, so a 10 s run at 1 µs costs what its events cost.
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
        // A group's text runs on over the columns after it: leave it room and a `-` before the
        // lane's next event (`^1--2`, not `^12`).
        let groupNeed = spacings().filter { $0.gap >= shortest && $0.width > 1 }.map { $0.gap / Int64($0.width + 1) }.min()
        var near = TimeScale.step(near: max(1, shortest / 2))
        if let groupNeed { near = min(near, TimeScale.step(atMost: max(1, groupNeed))) }
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

    /// Each gap above the noise floor with the width of the group before it: the events of a
    /// lane closer together than the noise are one instant, drawn as one group.
    private func spacings() -> [(gap: Int64, width: Int)] {
        let noise = self.noise
        var out: [(gap: Int64, width: Int)] = []
        for lane in plan.lanes {
            var first = 0
            for i in lane.times.indices.dropFirst() where lane.times[i] - lane.times[i - 1] > noise {
                let width = Self.cellWidth(count: i - first, leadsWithSubscription: lane.events[first] == .subscribed)
                out.append((lane.times[i] - lane.times[i - 1], width))
                first = i
            }
        }
        return out
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
                if even { return refined(step, period: period, available: available) }
                firstFit = step
            }
            let next = TimeScale.coarser(than: step)
            if next == step || step > 4 * max(end, 1) || firstFit.map({ next > 5 * $0 }) == true { break }
            step = next
        }
        return refined(firstFit ?? step, period: period, available: available)
    }

    /// A short diagram (its last event within `shortColumns` columns, narrower than twice that)
    /// with an event between two columns gets finer columns, at most four round steps finer,
    /// each keeping the period even and fitting, until its events sit on columns:
    /// `just 1 | asyncMap delay 300` at 100 ms, not 200 ms, per column. A longer diagram, or one
    /// whose events are on columns already, keeps its step (a stepped run's scale stays put).
    private func refined(_ step: Int64, period: Int64?, available: Int) -> Int64 {
        guard !realGaps().isEmpty, let last = plan.lanes.compactMap(\.times.last).max() else { return step }
        var step = step
        func between(_ step: Int64) -> Bool { plan.lanes.contains { $0.times.contains { $0 % step != 0 } } }
        for _ in 0..<4
        where column(of: last, step: step) < Self.shortColumns && width(step: step, limit: available) < 2 * Int(Self.shortColumns)
            && between(step)
        {
            guard
                let finer = TimeScale.steps.last(where: { candidate in candidate < step && (period.map { Self.divides(candidate, $0) } ?? true) }),
                width(step: finer, limit: available) <= available
            else { break }
            step = finer
        }
        return step
    }

    /// A diagram whose last event is in an earlier column than this is short.
    static let shortColumns: Int64 = 6

    /// The label of an idle stretch of `count` columns, when it collapses.
    func gapText(count: Int64, step: Int64) -> String? {
        guard count >= Self.collapseAt else { return nil }
        let text = " " + TimeScale.durationText(count * step) + " "
        return Int64(text.count + 2) < count ? text : nil
    }

    private func idleWidth(count: Int64, step: Int64) -> Int64 {
        gapText(count: count, step: step).map { Int64($0.count + 2) } ?? count
    }

    /// The width of a group's text: `3`, `^3`, `(3|)`, `^(3|)`, `(3…5|)`.
    static func cellWidth(count: Int, leadsWithSubscription: Bool) -> Int {
        if count == 1 { return 1 }
        let lead = leadsWithSubscription ? 1 : 0
        let rest = count - lead
        if rest == 1 { return 2 }
        return lead + (rest <= MarbleLayout.groupLimit ? rest + 2 : 5)
    }

    /// One lane's events in one column at a step: `events` indexes the lane's events.
    struct Group {
        var column: Int64
        var events: Range<Int>
        /// How many terminal columns it is drawn in from its column: its text's width when that
        /// fits before the lane's next group, else 1 (a key letter).
        var reach: Int
        /// Whether it is drawn as a key letter because its text does not fit.
        var keyed: Bool
    }

    /// A lane's events grouped by column: a group's text runs on over the following columns of
    /// its lane when they are free, and is drawn as one key letter when they are not, so every
    /// column stays one step of time.
    func groups(of lane: LanePlan.Lane, step: Int64) -> [Group] {
        var out: [Group] = []
        var i = 0
        let times = lane.times
        while i < times.count {
            let here = column(of: times[i], step: step)
            var j = i + 1
            while j < times.count && column(of: times[j], step: step) == here { j += 1 }
            let width = Self.cellWidth(count: j - i, leadsWithSubscription: lane.events[i] == .subscribed)
            out.append(Group(column: here, events: i..<j, reach: width, keyed: false))
            i = j
        }
        for k in out.indices.dropLast() where Int64(out[k].reach) > out[k + 1].column - out[k].column {
            out[k].reach = 1
            out[k].keyed = true
        }
        return out
    }

    /// Occupied columns, sorted, each with its farthest reach, packed as `column << 4 | reach`.
    private func occupied(step: Int64) -> [Int64] {
        var packed: [Int64] = []
        packed.reserveCapacity(plan.lanes.reduce(0) { $0 + $1.times.count })
        for lane in plan.lanes {
            for group in groups(of: lane, step: step) { packed.append(group.column << 4 | Int64(group.reach)) }
            // A pull's column is drawn as itself (its mark goes under it), never collapsed.
            for pull in lane.pulls { packed.append(column(of: pull, step: step) << 4 | 1) }
        }
        packed.sort()
        // Keep one entry per column: the last of a column's run reaches farthest.
        var out: [Int64] = []
        out.reserveCapacity(packed.count)
        for (k, value) in packed.enumerated() where k == packed.count - 1 || packed[k + 1] >> 4 != value >> 4 {
            out.append(value)
        }
        return out
    }

    /// The column of the run's end or its last event, whichever is later: the ruler stops there
    /// (a group's text may run on past it).
    func lastTimeColumn(step: Int64) -> Int64 {
        let last = plan.lanes.compactMap(\.times.last).max() ?? 0
        return column(of: max(end, last), step: step)
    }

    private func lastColumn(step: Int64, occupied: [Int64]) -> Int64 {
        max(column(of: end, step: step), occupied.last.map { $0 >> 4 } ?? 0)
    }

    /// The lanes' width at `step`, stopping early once it passes `limit`.
    func width(step: Int64, limit: Int) -> Int {
        columns(step: step, limit: limit).width
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

    /// Where the columns go at `step`: every column one terminal column, idle stretches of
    /// `collapseAt` or more columns drawn as their duration, except the columns a group's text
    /// runs on over. With a `limit`, stops once the width passes it (offsets then incomplete).
    func columns(step: Int64, limit: Int? = nil) -> Columns {
        let occupied = occupied(step: step)
        var result = Columns()
        let recording = limit == nil
        if recording { result.offset.reserveCapacity(occupied.count) }
        var x = 0
        var previous: Int64 = -1
        // Columns before this one are drawn plainly: a group's text runs over them.
        var plainUntil: Int64 = 0
        func idle(from first: Int64, count: Int64) {
            guard count > 0 else { return }
            let plain = min(count, max(0, plainUntil - first))
            if plain > 0 {
                if recording { result.plain.append((first, plain, x)) }
                x += Int(plain)
            }
            let rest = count - plain
            guard rest > 0 else { return }
            let start = first + plain
            if let text = gapText(count: rest, step: step) {
                if recording {
                    result.gaps.append(
                        MarbleLayout.Gap(offset: x, width: text.count + 2, time: start * step, duration: rest * step, text: text))
                }
                x += text.count + 2
            } else {
                if recording { result.plain.append((start, rest, x)) }
                x += Int(rest)
            }
        }
        for value in occupied {
            let column = value >> 4
            idle(from: previous + 1, count: column - previous - 1)
            if recording {
                result.offset[column] = x
                result.occupiedColumns.append((column, x))
            }
            x += 1
            plainUntil = max(plainUntil, column + (value & 0xF))
            previous = column
            if let limit, x > limit { break }
        }
        idle(from: previous + 1, count: max(lastColumn(step: step, occupied: occupied), plainUntil - 1) - previous)
        result.width = x
        return result
    }
}
