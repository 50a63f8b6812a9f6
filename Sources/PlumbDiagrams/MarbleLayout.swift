/// Where everything of a marble diagram goes, for a given width in terminal columns: the time
/// per column, each lane's cells, collapsed idle stretches, ruler marks, value keys and the
/// legend. Pure: `MarbleText` prints it. (`MarbleSVG` does not use it: its x is the event's
/// time, which elastic groups would move.)
///
/// Time runs left to right in columns of `step` nanoseconds, every column one step, so a
/// reader can count columns into time. Events of a lane in the same column form one group
/// `( … )`, drawn from its column (the `(` or a leading `^` is its time) over the following
/// columns of its lane when they are free; when the lane's next event comes sooner, the group is
/// one key letter and the legend gives its text (`e=(ab|)`). A stretch of ten or more columns in
/// which no lane has an event collapses into its duration (` 9.6 s `). The step is a round one
/// (1, 2, 2.5, 5 × 10ⁿ) that leaves a group room and a `-` before its lane's next event, divides
/// the lanes' period when they have one (so a periodic source draws with equal dashes), and is
/// made finer for a diagram whose events all fall in its first few columns.
///
/// ```swift
/// let layout = MarbleLayout(run, width: 80)
/// layout.footer          // "1 column = 50 ms; a group ( ) is one instant, at its start"
/// layout.rows[0].label   // "[0] interval 100ms"
/// layout.rows[0].cells.map(\.text)  // ["^", "0", "1", "2", "(3!)"]
/// ```
///
/// An async stage's pulls (`MarbleLane.pulls`) take columns as events do, so a pull is never
/// inside a collapsed stretch; `Row.pulls` gives their offsets.
public struct MarbleLayout: Sendable, Hashable {
    /// The width the layout fits in (at least `minimumWidth`).
    public var width: Int
    /// Nanoseconds of run time per column.
    public var step: Int64
    /// The label column's width, labels plus the gap before the lanes.
    public var labelWidth: Int
    /// The lanes' width in terminal columns (`labelWidth + laneWidth <= width`).
    public var laneWidth: Int
    /// The lines `MarbleText` draws for the lanes, after the ruler: one per row, and the `↑` line
    /// under each row with pulls (what goes under the lanes is inserted after them).
    public var laneLineCount: Int { rows.count + rows.count(where: { !$0.pulls.isEmpty }) }
    /// One row per lane, parents before their sub-lanes.
    public var rows: [Row]
    /// Idle stretches drawn as their duration.
    public var gaps: [Gap]
    /// The ruler's marks, each at a column's offset in the lanes; all fit with the unit.
    public var marks: [Mark]
    /// The ruler marks' unit, written once after the last mark (`ms`: marks `0 100 200`); empty
    /// when every mark carries its own (`0 s`, `1 s`).
    public var unit: String
    /// Where the unit goes on the ruler row, an offset in the lanes like a mark's.
    public var unitOffset: Int
    /// Keys of values longer than one character, in order of first appearance.
    public var legend: [LegendEntry]
    /// The failure messages, each with the rows that failed with it.
    public var failures: [Failure]

    /// The narrowest width laid out; a smaller one is raised to this.
    public static let minimumWidth = 24

    /// Whether a group's text runs on over the columns after its own, which the footer then
    /// says: the group is one instant, at its first character.
    public var widened = false

    /// The footer line's text: `1 column = 50 ms`, and when a group's text runs on,
    /// `1 column = 50 ms; a group ( ) is one instant, at its start`.
    public var footer: String { footer(fitting: .max) }

    /// The footer in at most `width` characters: the group clause shortened, then left out.
    func footer(fitting width: Int) -> String {
        let step = "1 column = \(TimeScale.stepText(step))"
        guard widened else { return step }
        for clause in ["; a group ( ) is one instant, at its start", "; a group ( ) is one instant", "; ( ) is one instant"]
        where step.count + clause.count <= width {
            return step + clause
        }
        return step
    }

    /// Lays out `run` to fit in `width` terminal columns.
    ///
    /// - Parameters:
    ///   - run: The recorded run; a lane without a finish, failure or cancel is live up to
    ///     `run.end` (a partial diagram).
    ///   - width: The terminal's width; the label column takes at most a third of it.
    ///
    /// ```swift
    /// let layout = MarbleLayout(run, width: 40)
    /// assert(layout.labelWidth + layout.laneWidth <= 40)
    /// ```
    public init(_ run: MarbleRun, width: Int) {
        let width = max(width, Self.minimumWidth)
        let plan = LanePlan(run)
        self.width = width

        let gap = 3
        let longest = plan.lanes.map { $0.prefix.terminalWidth + $0.text.terminalWidth }.max() ?? 0
        labelWidth = min(longest + gap, width / 3)
        let labelRoom = labelWidth - gap

        let fitter = ColumnFitter(plan: plan, end: LanePlan.clamped(run.end))
        step = fitter.fit(available: width - labelWidth)
        let columns = fitter.columns(step: step)
        laneWidth = columns.width
        gaps = columns.gaps

        var rows: [Row] = []
        rows.reserveCapacity(plan.lanes.count)
        for lane in plan.lanes {
            let label = Self.label(prefix: lane.prefix, text: lane.text, room: labelRoom)
            rows.append(Row(lane: lane.index, kind: lane.kind, depth: lane.depth, label: label, span: nil, cells: []))
        }
        var occurrences: [(column: Int64, row: Int, cell: Int, item: Int)] = []
        for (r, lane) in plan.lanes.enumerated() {
            var cells: [Cell] = []
            for group in fitter.groups(of: lane, step: step) {
                let items = Self.drawnItems(lane.events[group.events])
                for (n, item) in items.enumerated() {
                    if case .value = item { occurrences.append((group.column, r, cells.count, n)) }
                }
                var cell = Cell(offset: columns.offset[group.column] ?? 0, time: group.column * step, items: items)
                if group.keyed { cell.key = "?" }
                cells.append(cell)
            }
            if let first = cells.first, let last = cells.last {
                rows[r].span = first.offset..<(lane.ended ? last.offset + last.text.count : laneWidth)
            }
            rows[r].cells = cells
            var pulls: [Int] = []
            for pull in lane.pulls {
                let offset = columns.offset[fitter.column(of: pull, step: step)] ?? 0
                if pulls.last != offset { pulls.append(offset) }
            }
            rows[r].pulls = pulls
        }

        legend = Self.assignKeys(&rows, occurrences: occurrences)
        failures = Self.failures(in: rows)

        let markEvery = TimeScale.markEvery(step: step)
        let lastTime = fitter.lastTimeColumn(step: step)
        let markColumns = columns.plainColumns(every: markEvery).filter { $0.0 <= lastTime }
        var ruler = TimeScale.rulerUnit(markInterval: markEvery * step)
        // A ruler that reaches 10,000 of its unit (after a collapsed stretch) reads in the next.
        if let bigger = TimeScale.units.first(where: { $0.ns > ruler.ns }), (markColumns.last?.0 ?? 0) * step >= 10_000 * ruler.ns {
            ruler = bigger
        }
        // Seconds are short enough to carry their unit on every mark (`0 s   1 s   2 s`); smaller
        // units go once, after the last mark (`0    100   200 ms`).
        let unitPerMark = ruler.ns >= 1_000_000_000
        unit = unitPerMark ? "" : ruler.name
        var marks: [Mark] = []
        var free = 0
        for (column, offset) in markColumns where offset >= free {
            let number = TimeScale.decimal(column * step, unit: ruler.ns)
            let text = unitPerMark ? "\(number) \(ruler.name)" : number
            marks.append(Mark(offset: offset, time: column * step, text: text))
            free = offset + text.count + 1
        }
        // A diagram with a time extent shorter than its mark interval still gets a mark past 0,
        // where the ruler runs on past the lanes.
        if marks.count == 1, marks[0].time == 0, columns.gaps.isEmpty, fitter.lastTimeColumn(step: step) > 0, Int(markEvery) >= marks[0].text.count + 1 {
            let number = TimeScale.decimal(markEvery * step, unit: ruler.ns)
            marks.append(Mark(offset: Int(markEvery), time: markEvery * step, text: unitPerMark ? "\(number) \(ruler.name)" : number))
        }
        // The unit goes one space after the last mark; marks that would push it past the width go.
        func unitStart(_ marks: [Mark]) -> Int { marks.last.map { $0.offset + $0.text.count + 1 } ?? 0 }
        while !marks.isEmpty && labelWidth + unitStart(marks) + unit.count > width { marks.removeLast() }
        self.marks = marks
        unitOffset = unitStart(marks)
        widened = rows.contains { $0.cells.contains { $0.text.count > 1 } }
        self.rows = rows
    }

    private static func label(prefix: String, text: String, room: Int) -> String {
        let prefixWidth = prefix.terminalWidth
        if prefixWidth + text.terminalWidth <= room { return prefix + text }
        if prefixWidth + 2 <= room { return prefix + shortened(text, toWidth: room - prefixWidth) }
        return shortened(prefix + text, toWidth: room)
    }

    /// The most events a group shows; a longer one shows its first, `…` and its last.
    static let groupLimit = 4

    private static func drawnItems(_ events: ArraySlice<MarbleEvent>) -> [Item] {
        var items = events.map { event -> Item in
            switch event {
            case .subscribed: return .subscribed
            case .value(let value): return .value(key: " ", text: value.text)
            case .finished: return .finished
            case .failed(let message, let id): return .failed(message: sanitized(message), id: id.map(sanitized))
            case .cancelled: return .cancelled
            }
        }
        let lead = items.first == .subscribed && items.count > 1 ? 1 : 0
        let rest = items.count - lead
        if rest > groupLimit {
            items = Array(items[..<lead]) + [items[lead], .more(count: rest - 2), items[items.count - 1]]
        }
        return items
    }

    /// Gives every drawn value its glyph: itself when it is one plain character, else a key
    /// letter (`a`, `b`, …, skipping letters drawn as values), the same for the same text.
    private static func assignKeys(_ rows: inout [Row], occurrences: [(column: Int64, row: Int, cell: Int, item: Int)]) -> [LegendEntry] {
        let sorted = occurrences.sorted { ($0.column, $0.row) < ($1.column, $1.row) }
        func text(_ o: (column: Int64, row: Int, cell: Int, item: Int)) -> String {
            guard case .value(_, let text) = rows[o.row].cells[o.cell].items[o.item] else { return "" }
            return text
        }
        var taken = Set<Character>()
        for o in sorted {
            let t = text(o)
            if let glyph = glyph(of: t) { taken.insert(glyph) }
        }
        var alphabet = (Array("abcdefghijklmnopqrstuvwxyz") + Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")).filter { !taken.contains($0) }[...]
        var keys: [String: Character] = [:]
        var legend: [LegendEntry] = []
        var overflow = 0
        for o in sorted {
            let t = text(o)
            let key: Character
            if let glyph = glyph(of: t) {
                key = glyph
            } else if let known = keys[t] {
                key = known
            } else if let next = alphabet.popFirst() {
                key = next
                keys[t] = next
                legend.append(LegendEntry(key: next, text: sanitized(t)))
            } else {
                key = "?"
                keys[t] = "?"
                overflow += 1
            }
            rows[o.row].cells[o.cell].items[o.item] = .value(key: key, text: t)
        }
        // Groups whose text does not fit before their lane's next event: one key letter each,
        // the same for the same text, the group's text in the legend (`c=(ab|)`).
        var groups: [(time: Int64, row: Int, cell: Int)] = []
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.cells.enumerated() where cell.key != nil { groups.append((cell.time, r, c)) }
        }
        groups.sort { ($0.time, $0.row) < ($1.time, $1.row) }
        var groupKeys: [String: Character] = [:]
        var groupOverflow = 0
        for g in groups {
            rows[g.row].cells[g.cell].key = nil
            let text = rows[g.row].cells[g.cell].text
            let key: Character
            if let known = groupKeys[text] {
                key = known
            } else if let next = alphabet.popFirst() {
                key = next
                groupKeys[text] = next
                legend.append(LegendEntry(key: next, text: text))
            } else {
                key = "?"
                groupKeys[text] = "?"
                groupOverflow += 1
            }
            rows[g.row].cells[g.cell].key = key
        }
        if overflow > 0 { legend.append(LegendEntry(key: "?", text: "\(overflow) more values")) }
        if groupOverflow > 0 { legend.append(LegendEntry(key: "?", text: "\(groupOverflow) more groups")) }
        return legend
    }

    /// The characters a value may be drawn as: one printable ASCII character that is not a token.
    static func glyph(of text: String) -> Character? {
        guard text.utf8.count == 1, let c = text.first, let ascii = c.asciiValue, ascii > 0x20, ascii < 0x7F,
            !"-^|#!()?".contains(c)
        else { return nil }
        return c
    }

    private static func failures(in rows: [Row]) -> [Failure] {
        var out: [Failure] = []
        for (r, row) in rows.enumerated() {
            for cell in row.cells {
                for case .failed(let message, let id) in cell.items {
                    if let k = out.firstIndex(where: { $0.message == message && $0.id == id }) {
                        out[k].rows.append(r)
                    } else {
                        out.append(Failure(message: message, id: id, rows: [r]))
                    }
                }
            }
        }
        return out
    }
}

extension MarbleLayout {
    /// One lane of the diagram.
    ///
    /// ```swift
    /// let row = MarbleLayout(run, width: 80).rows[1]
    /// row.label   // "    ├ inner 1"
    /// row.span    // 2..<13: live from its `^` to the end of its `(0a|)`
    /// ```
    public struct Row: Sendable, Hashable {
        /// The lane's index in `MarbleRun.lanes`.
        public var lane: Int
        /// A stage, an inner publisher or a retry attempt (the SVG draws attempts dashed).
        public var kind: MarbleLane.Kind
        /// 0 for a stage, 1 for its sub-lanes, 2 for theirs.
        public var depth: Int
        /// `[i] ` and the stage's text, or the tree prefix and a sub-lane's name, shortened with
        /// `…` to fit the label column.
        public var label: String
        /// Offsets in the lanes where the lane is live (from its first event to the end of its
        /// last cell, or to the lanes' end when it has not ended); nil for a lane with no events.
        public var span: Range<Int>?
        /// The lane's events, one cell per column that has any.
        public var cells: [Cell]
        /// An async stage's pulls: the offsets (in the lanes) of the columns in which its
        /// consumer called `next()`, one each, in order; `MarbleText` draws a `↑` under each.
        public var pulls: [Int] = []
    }

    /// The events of one lane in one column.
    ///
    /// ```swift
    /// cell.items   // [.value(key: "3", text: "3"), .finished]
    /// cell.text    // "(3|)"
    /// ```
    public struct Cell: Sendable, Hashable {
        /// Offset of the column in the lanes (terminal columns after the label column).
        public var offset: Int
        /// The column's time, in nanoseconds since the run's start.
        public var time: Int64
        /// The events in order; a group of more than four shows its first, `.more` and its last.
        public var items: [Item]
        /// The letter a group is drawn as when its text does not fit before its lane's next
        /// event (the legend gives its text); nil when the cell is drawn as its text.
        public var key: Character?

        /// A cell drawn as its text (`key` nil).
        public init(offset: Int, time: Int64, items: [Item], key: Character? = nil) {
            self.offset = offset
            self.time = time
            self.items = items
            self.key = key
        }

        /// The glyphs: `3`, `^`, `(3|)`; a subscription before other events leads: `^(1|)`; a
        /// group that does not fit, its key letter.
        public var text: String {
            if let key { return String(key) }
            if items.count == 1 { return String(items[0].glyph) }
            var out = ""
            var rest = items[...]
            if items.first == .subscribed {
                out.append("^")
                rest = rest.dropFirst()
                if rest.count == 1 { out.append(rest[rest.startIndex].glyph); return out }
            }
            out.append("(")
            for item in rest { out.append(item.glyph) }
            out.append(")")
            return out
        }
    }

    /// One event as drawn.
    ///
    /// ```swift
    /// MarbleLayout.Item.failed(message: "boom", id: nil).glyph   // "#"
    /// ```
    public enum Item: Sendable, Hashable {
        /// `^`
        case subscribed
        /// The value's glyph or key letter, and its text.
        case value(key: Character, text: String)
        /// `|`
        case finished
        /// `#`, with the message and the language's id (`E602`, nil for `fail "…"`) for the legend.
        case failed(message: String, id: String?)
        /// `!`
        case cancelled
        /// `…`: events of a long group not shown.
        case more(count: Int)

        /// The character the text diagram draws.
        public var glyph: Character {
            switch self {
            case .subscribed: return "^"
            case .value(let key, _): return key
            case .finished: return "|"
            case .failed: return "#"
            case .cancelled: return "!"
            case .more: return "…"
            }
        }
    }

    /// An idle stretch drawn as its duration.
    ///
    /// ```swift
    /// layout.gaps.first?.text   // " 9.7s "
    /// ```
    public struct Gap: Sendable, Hashable {
        /// Where it starts in the lanes.
        public var offset: Int
        /// How wide it is: `text` with a `-` each side.
        public var width: Int
        /// Its first column's time, in nanoseconds since the run's start.
        public var time: Int64
        /// How long nothing happened, in nanoseconds (`text` says it in words).
        public var duration: Int64
        /// ` 9.6s `
        public var text: String
    }

    /// A ruler mark: a plain number in the ruler's unit over a column.
    ///
    /// ```swift
    /// layout.marks.map(\.text)   // ["0", "200", "400"] with unit "ms"; ["0 s", "1 s"] in seconds
    /// ```
    public struct Mark: Sendable, Hashable {
        /// The column's offset in the lanes.
        public var offset: Int
        /// The column's time in nanoseconds.
        public var time: Int64
        /// The time in the ruler's unit (`200` with unit `ms`, or `1 s` with the unit on the mark).
        public var text: String
    }

    /// A value's key letter and its text (`a=10`).
    ///
    /// ```swift
    /// layout.legend.map { "\($0.key)=\($0.text)" }   // ["a=10", "b=\"hello\""]
    /// ```
    public struct LegendEntry: Sendable, Hashable {
        /// The letter drawn in the lanes.
        public var key: Character
        /// The value's text as the language writes it.
        public var text: String
    }

    /// A failure message and the rows that failed with it (`#: boom`, or
    /// `#: failed[E602]: division by zero` for an error the language raised).
    ///
    /// ```swift
    /// layout.failures.first?.message   // "boom"
    /// ```
    public struct Failure: Sendable, Hashable {
        /// The failure's message, control characters made harmless.
        public var message: String
        /// The language's id for it (`E602`); nil for a user's `fail "…"`.
        public var id: String?
        /// Indices in `MarbleLayout.rows`.
        public var rows: [Int]

        /// The legend's text: the message, after `failed[E602]: ` when the language raised it.
        public var text: String {
            id.map { MarbleEvent.failureHeading(id: $0) + ": " + message } ?? message
        }
    }
}
