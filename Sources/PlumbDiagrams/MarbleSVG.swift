/// Marble diagrams as one standalone SVG document, for slides: a lane per stage with its label,
/// marbles as circles with their value text, completion bars, error crosses, cancel marks,
/// inner and attempt lanes indented under their stage, and a time axis.
///
/// Every mark sits at its event's exact time: x is one linear function of time for all lanes of
/// a diagram (`TimeAxis`), with round ticks in plain units. Events of a lane at one instant are
/// stacked in one pill at that x; distinct instants too close to draw apart widen the picture
/// (up to a limit, past which they stack in a second row of the lane, still at their x). A long
/// idle stretch is an explicit break, a zigzag with its duration, in every lane and the axis.
/// Labels, values, the legend and the axis are `<text>` elements, so screen readers and tests
/// can read them; each mark is a `<g class="mark value" data-lane="L" data-event="E">` (or
/// `subscribed`, `finished`, `failure`, `cancel`) naming the
/// event (`MarbleRun.lanes[L].events[E]`) it draws. An async stage's pulls (its consumer's
/// `next()` calls, `MarbleLane.pulls`) are small triangles under its lane, each a
/// `<path class="pull" data-lane="L" data-time="NS">` at its time's x, with a legend entry.
public enum MarbleSVG {
    /// Renders the runs as diagrams stacked top to bottom, each under its title, each with its
    /// own time axis.
    ///
    /// - Parameters:
    ///   - runs: The recorded runs (a script's foreground pipelines, in order).
    ///   - titles: A title per run (the pipeline's text); missing or empty ones are left out.
    ///   - width: The widest the picture grows (the room's present view asks for one its screen
    ///     holds with no text under 16 px); marks too close to draw apart within it are stacked.
    /// - Returns: The SVG document, starting with its XML declaration.
    ///
    /// ```swift
    /// let svg = MarbleSVG.render([run], titles: ["interval 100ms | take 4"])
    /// try svg.write(toFile: "out.svg", atomically: true, encoding: .utf8)
    /// ```
    public static func render(_ runs: [MarbleRun], titles: [String], width maximumWidth: Double = defaultWidth) -> String {
        // Laid out first, so the document's size is known before its first byte and every mark
        // is written once, into one buffer of about 300 bytes a mark.
        var diagrams: [Diagram] = []
        var y = Metrics.margin
        var width = 320.0
        for (n, run) in runs.enumerated() {
            let title = n < titles.count ? sanitized(titles[n]) : ""
            let diagram = Diagram(run: run, title: title, top: y, maximumWidth: maximumWidth)
            y = diagram.bottom + Metrics.diagramGap
            width = max(width, diagram.right + Metrics.margin)
            diagrams.append(diagram)
        }
        let height = y - Metrics.diagramGap + Metrics.margin
        let summary = titles.isEmpty ? "Marble diagrams" : "Marble diagrams: " + titles.map(sanitized).joined(separator: "; ")
        var out = SVGWriter()
        out.bytes.reserveCapacity(4096 + 320 * runs.reduce(0) { $0 + $1.lanes.reduce(0) { $0 + $1.events.count } })
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" xml:space=\"preserve\" width=\"")
        out.number(width)
        out.raw("\" height=\"")
        out.number(height)
        out.raw("\" viewBox=\"0 0 ")
        out.number(width)
        out.raw(" ")
        out.number(height)
        out.raw("\" role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n<title>")
        out.escaped(summary)
        out.raw("</title>\n<rect x=\"0\" y=\"0\" width=\"")
        out.number(width)
        out.raw("\" height=\"")
        out.number(height)
        out.raw("\" fill=\"#ffffff\"/>\n")
        out.raw(MarbleSVG.styles)
        for diagram in diagrams { diagram.draw(into: &out) }
        out.raw("</svg>\n")
        return out.string
    }
}

extension MarbleSVG {
    /// The marks' strokes and fonts, one CSS rule per line. Every SVG document carries them in a
    /// `<style>` element; a page whose content security policy refuses inline styles (the
    /// workshop room's) serves them from its own style sheet instead, scoped with
    /// ``scopedStyleRules(under:)``, or its marbles' labels lose their centring.
    public static let styleRules: [String] = [
        ".mark path{fill:none;stroke:#1565c0;stroke-width:2.5;stroke-linejoin:round}",
        ".value circle{stroke:#263238;stroke-width:1.5}",
        ".value text{font-size:12px;font-weight:bold;text-anchor:middle;fill:#000000}",
        ".value text.small{font-size:9.5px}",
        ".finished line{stroke:#212121;stroke-width:3;stroke-linecap:round}",
        ".failure line{stroke:#d32f2f;stroke-width:3.5;stroke-linecap:round}",
        ".cancel circle{fill:#ffffff;stroke:#ef6c00;stroke-width:2.5}",
        ".cancel line{stroke:#ef6c00;stroke-width:2.5;stroke-linecap:round}",
    ]

    /// ``styleRules`` with each selector under `scope` (a page's class names cannot reach the
    /// diagram's, nor its the page's).
    public static func scopedStyleRules(under scope: String) -> String {
        styleRules.map { "\(scope) \($0)" }.joined(separator: "\n")
    }

    /// The `<style>` element written once per document.
    /// The widest a picture grows to keep instants apart (a slide holds it).
    public static let defaultWidth = 1_600.0

    static let styles = "<style>\n" + styleRules.joined(separator: "\n") + "\n</style>\n"
}

private enum Metrics {
    static let margin = 20.0
    static let diagramGap = 28.0
    static let labelFont = 14.0
    /// DejaVu Sans Mono's advance is 0.602 em.
    static let labelAdvance = 0.602 * labelFont
    /// The label column is at most this many characters (what a 160-column terminal gives it).
    static let labelCharacters = 53
    static let titleHeight = 30.0
    static let marbleRadius = 11.0
    /// The least distance between two distinct instants of a lane: a marble and a hair.
    static let separation = 2 * marbleRadius + 4
    /// Vertical distance between the stacked events of one instant.
    static let itemPitch = 24.0
    /// A pill shows at most this many events: the first ones, `…`, the last.
    static let pillLimit = 5
    static let rowPadding = 20.0
    static let axisHeight = 44.0
    static let legendLine = 20.0
    /// The room a lane's pull triangles take under its marbles.
    static let pullHeight = 10.0
}

/// One event as drawn: its index in the run's lane, and what it is.
private struct Item {
    var event: Int
    var kind: MarbleEvent
}

/// The events of one lane at one instant (or within half a marble's radius of it at the
/// picture's scale), stacked at the instant's x.
private struct Pill {
    var time: Int64
    var x: Double
    /// The events shown, top to bottom; `hidden` more between the last two when it is long.
    var items: [Item]
    var hidden: Int
    /// The lane's sub-row: 0 unless distinct instants had to be stacked.
    var level: Int
}

private struct Row {
    var lane: LanePlan.Lane
    var label: String
    var pills: [Pill]
    var levels: Int
    var levelHeight: Double
    var top: Double
    var height: Double
    /// y of the lane's line (the first item of its first sub-row).
    var y: Double { top + Metrics.rowPadding / 2 + Metrics.marbleRadius + 4 }
}

private struct Diagram {
    let title: String
    var axis: TimeAxis
    var rows: [Row] = []
    var keys: [String: String] = [:]
    var legend: [(String, String)] = []
    var failures: [String] = []
    var top: Double
    var lanesTop: Double
    var bottom = 0.0
    var right = 0.0
    var axisY = 0.0
    /// Said under the legend when marks had to be stacked to fit the picture's width.
    var note: String?
    /// The legend's entries, each with its colour and place.
    var legendItems: [(text: String, fill: StaticString, x: Double, y: Double)] = []

    /// - Parameter maximumWidth: The widest the picture grows; past it, marks too close to draw
    ///   apart stack in sub-rows and a note says so.
    init(run: MarbleRun, title: String, top: Double, maximumWidth: Double) {
        self.title = title
        self.top = top
        let plan = LanePlan(run)
        let labels = plan.lanes.map { lane -> String in
            let room = Metrics.labelCharacters
            let prefixWidth = lane.prefix.terminalWidth
            if prefixWidth + lane.text.terminalWidth <= room { return lane.prefix + lane.text }
            return lane.prefix + shortened(lane.text, toWidth: max(2, room - prefixWidth))
        }
        let labelChars = labels.map(\.terminalWidth).max() ?? 0
        let origin = Metrics.margin + Double(labelChars) * Metrics.labelAdvance + 28 + Metrics.marbleRadius
        // The lanes end 80 px before the picture's right edge (room for the axis's "time →").
        let widest = max(240, maximumWidth - Metrics.margin - 80 - origin)
        axis = TimeAxis(
            times: plan.lanes.map(\.times), end: LanePlan.clamped(run.end), origin: origin, separation: Metrics.separation,
            targetWidth: min(720, widest), maximumWidth: widest, marks: plan.lanes.flatMap(\.pulls))
        lanesTop = top + (title.isEmpty ? 0 : Metrics.titleHeight)
        var y = lanesTop
        for (lane, label) in zip(plan.lanes, labels) {
            var row = Self.row(lane, label: label, axis: axis)
            row.top = y
            y += row.height
            rows.append(row)
        }
        assignKeys()
        if rows.contains(where: { $0.levels > 1 }), axis.pixelsPerNanosecond > 0 {
            let closest = TimeScale.durationText(Int64((Metrics.separation / axis.pixelsPerNanosecond).rounded(.up)))
            note = "Too dense to draw apart in \(Int(maximumWidth)) px: marks closer than \(closest) are stacked, each still at its time"
        }
        right = max(axis.right + 80, origin + 220)
        axisY = y + 8
        (legendItems, bottom) = legendLayout(top: y + Metrics.axisHeight)
    }

    /// A lane's pills and sub-rows.
    private static func row(_ lane: LanePlan.Lane, label: String, axis: TimeAxis) -> Row {
        // Events closer than half a marble's radius draw as one instant.
        let tolerance = axis.pixelsPerNanosecond > 0 ? (Metrics.marbleRadius / 2) / axis.pixelsPerNanosecond : .infinity
        var pills: [Pill] = []
        var levelEnds: [Double] = []
        var i = 0
        var tallest = 1
        while i < lane.times.count {
            let start = lane.times[i]
            var j = i + 1
            while j < lane.times.count && Double(lane.times[j] - start) <= tolerance { j += 1 }
            var items = (i..<j).map { Item(event: lane.order[$0], kind: lane.events[$0]) }
            var hidden = 0
            if items.count > Metrics.pillLimit {
                hidden = items.count - (Metrics.pillLimit - 1)
                items = Array(items.prefix(Metrics.pillLimit - 2)) + [items[items.count - 1]]
            }
            let x = axis.x(start)
            let level = levelEnds.firstIndex { $0 + Metrics.separation <= x } ?? levelEnds.count
            if level == levelEnds.count { levelEnds.append(x) } else { levelEnds[level] = x }
            tallest = max(tallest, items.count + (hidden > 0 ? 1 : 0))
            pills.append(Pill(time: start, x: x, items: items, hidden: hidden, level: level))
            i = j
        }
        let levels = max(1, levelEnds.count)
        let levelHeight = Double(tallest - 1) * Metrics.itemPitch + 2 * Metrics.marbleRadius + 8
        // A lane with pulls has room under its marbles for their triangles.
        let height = max(44, Double(levels) * levelHeight + Metrics.rowPadding) + (lane.pulls.isEmpty ? 0 : Metrics.pullHeight)
        return Row(lane: lane, label: label, pills: pills, levels: levels, levelHeight: levelHeight, top: 0, height: height)
    }

    /// Values of up to three characters are drawn in their marble; longer ones get a key letter
    /// (skipping letters drawn as values) and a legend entry, the same for the same text.
    private mutating func assignKeys() {
        var taken = Set<String>()
        var ordered: [(Int64, Int, String)] = []
        for (r, row) in rows.enumerated() {
            for pill in row.pills {
                for item in pill.items {
                    switch item.kind {
                    case .value(let value):
                        // Only a one-letter value can take a key letter.
                        if value.text.utf8.count == 1 {
                            taken.insert(value.text)
                        } else if !fitsMarble(value.text) {
                            ordered.append((pill.time, r, value.text))
                        }
                    case .failed(let message, let id):
                        // As the text legend has it: `failed[E602]: …` for the language's errors.
                        let message = sanitized(id.map { MarbleEvent.failureHeading(id: $0) + ": " + message } ?? message)
                        if !failures.contains(message) { failures.append(message) }
                    case .subscribed, .finished, .cancelled: break
                    }
                }
            }
        }
        ordered.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var alphabet = (Array("abcdefghijklmnopqrstuvwxyz") + Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")).map(String.init).filter { !taken.contains($0) }[...]
        var overflow = 0
        for (_, _, text) in ordered where keys[text] == nil {
            if let key = alphabet.popFirst() {
                keys[text] = key
                legend.append((key, sanitized(text)))
            } else {
                keys[text] = "?"
                overflow += 1
            }
        }
        if overflow > 0 { legend.append(("?", "\(overflow) more values")) }
    }

    func draw(into out: inout SVGWriter) {
        out.raw("<g class=\"diagram\">\n")
        if !title.isEmpty {
            out.text(title, x: Metrics.margin, y: top + 18, size: 16, weight: "bold", family: "DejaVu Sans, Helvetica, Arial, sans-serif")
        }
        for row in rows { drawRow(row, into: &out) }
        drawAxis(y: axisY, into: &out)
        for item in legendItems { out.text(item.text, x: item.x, y: item.y, size: 13, fill: item.fill) }
        out.raw("</g>\n")
    }

    private func drawRow(_ row: Row, into out: inout SVGWriter) {
        let label = row.label
        let indent = label.prefix(while: { $0 == " " }).count
        let sub = row.lane.depth > 0
        let y = row.y
        out.text(
            String(label.dropFirst(indent)), x: Metrics.margin + Double(indent) * Metrics.labelAdvance, y: y + 5,
            size: Metrics.labelFont, fill: sub ? "#555555" : "#111111")
        let stroke: StaticString = sub ? "#9e9e9e" : "#424242"
        if let first = row.lane.times.first, let last = row.lane.times.last {
            let start = axis.x(first)
            let end = row.lane.ended ? axis.x(last) : axis.right + 14
            out.line(start, y, end, y, stroke: stroke, width: sub ? 1.5 : 2, dash: row.lane.kind == .attempt ? "6 4" : nil)
            if !row.lane.ended {
                // Still running at the run's end: an arrowhead.
                out.raw("<path d=\"M")
                out.number(end - 8)
                out.raw(" ")
                out.number(y - 5)
                out.raw(" L")
                out.number(end)
                out.raw(" ")
                out.number(y)
                out.raw(" L")
                out.number(end - 8)
                out.raw(" ")
                out.number(y + 5)
                out.raw("\" fill=\"none\" stroke=\"")
                out.raw(stroke)
                out.raw("\" stroke-width=\"2\"/>\n")
            }
        }
        for b in axis.breaks {
            out.raw("<g class=\"lane-break\">")
            drawZigzag(b, y: y, height: 24, into: &out)
            out.raw("</g>\n")
        }
        for pill in row.pills { drawPill(pill, row: row, into: &out) }
        drawPulls(row, into: &out)
    }

    /// An async stage's pulls: a small triangle pointing up at the lane, under its marbles (under
    /// its tallest pill and its stacked sub-rows too), at each pull's time.
    private func drawPulls(_ row: Row, into out: inout SVGWriter) {
        let tip = row.y + Double(row.levels) * row.levelHeight - Metrics.marbleRadius - 1
        for time in row.lane.pulls {
            let x = axis.x(time)
            out.raw("<path class=\"pull\" data-lane=\"")
            out.integer(row.lane.index)
            out.raw("\" data-time=\"")
            out.raw(String(time))
            out.raw("\" d=\"M")
            out.number(x)
            out.raw(" ")
            out.number(tip)
            out.raw(" L")
            out.number(x + 4.5)
            out.raw(" ")
            out.number(tip + 7)
            out.raw(" L")
            out.number(x - 4.5)
            out.raw(" ")
            out.number(tip + 7)
            out.raw(" Z\" fill=\"")
            out.raw(Self.pullColor)
            out.raw("\"><title>next()</title></path>\n")
        }
    }

    /// The pull triangles' colour, and their legend entry's.
    private static let pullColor: StaticString = "#00897b"

    /// A break: the lane (or axis) interrupted by two zigzag strokes in the middle of the break.
    private func drawZigzag(_ b: TimeAxis.Break, y: Double, height: Double, into out: inout SVGWriter) {
        let middle = b.left + TimeAxis.breakWidth / 2
        out.raw("<rect x=\"")
        out.number(middle - 12)
        out.raw("\" y=\"")
        out.number(y - height / 2)
        out.raw("\" width=\"24\" height=\"")
        out.number(height)
        out.raw("\" fill=\"#ffffff\"/>")
        for edge in [middle - 8, middle + 4] {
            out.raw("<path d=\"M")
            out.number(edge)
            out.raw(" ")
            out.number(y - height / 2)
            let steps = 4
            for k in 1...steps {
                out.raw(" L")
                out.number(edge + (k % 2 == 1 ? 4 : 0))
                out.raw(" ")
                out.number(y - height / 2 + height * Double(k) / Double(steps))
            }
            out.raw("\" fill=\"none\" stroke=\"#757575\" stroke-width=\"1.5\"/>")
        }
    }

    private func drawPill(_ pill: Pill, row: Row, into out: inout SVGWriter) {
        let top = row.y + Double(pill.level) * row.levelHeight
        let count = pill.items.count + (pill.hidden > 0 ? 1 : 0)
        if pill.level > 0 {
            // A stacked instant: a thin stem from the lane's line.
            out.line(pill.x, row.y, pill.x, top - Metrics.marbleRadius, stroke: "#bdbdbd", width: 1, dash: "2 3")
        }
        if count > 1 {
            out.raw("<rect class=\"pill\" x=\"")
            out.number(pill.x - 15)
            out.raw("\" y=\"")
            out.number(top - 15)
            out.raw("\" width=\"30\" height=\"")
            out.number(Double(count - 1) * Metrics.itemPitch + 30)
            out.raw("\" rx=\"15\" fill=\"#e8eaf6\" stroke=\"#9fa8da\" stroke-width=\"1\"/>\n")
        }
        var y = top
        for (n, item) in pill.items.enumerated() {
            if pill.hidden > 0 && n == pill.items.count - 1 {
                out.raw("<g class=\"more\"><title>")
                out.raw(String(pill.hidden))
                out.raw(" more events</title>")
                out.text("…", x: pill.x, y: y + 5, size: 16, fill: "#424242", anchor: "middle")
                out.raw("</g>\n")
                y += Metrics.itemPitch
            }
            drawItem(item, lane: row.lane.index, cx: pill.x, y: y, into: &out)
            y += Metrics.itemPitch
        }
    }

    private func drawItem(_ item: Item, lane: Int, cx: Double, y: Double, into out: inout SVGWriter) {
        // Shapes' strokes and fonts come from the document's style sheet (`MarbleSVG.styles`):
        // a 10,000-event picture writes each only once.
        switch item.kind {
        case .subscribed: out.raw("<g class=\"mark subscribed\" data-lane=\"")
        case .value: out.raw("<g class=\"mark value\" data-lane=\"")
        case .finished: out.raw("<g class=\"mark finished\" data-lane=\"")
        case .failed: out.raw("<g class=\"mark failure\" data-lane=\"")
        case .cancelled: out.raw("<g class=\"mark cancel\" data-lane=\"")
        }
        out.integer(lane)
        out.raw("\" data-event=\"")
        out.integer(item.event)
        switch item.kind {
        case .subscribed:
            out.raw("\"><title>subscribed</title><path d=\"M")
            out.number(cx - 7)
            out.raw(" ")
            out.number(y + 7)
            out.raw(" L")
            out.number(cx)
            out.raw(" ")
            out.number(y - 6)
            out.raw(" L")
            out.number(cx + 7)
            out.raw(" ")
            out.number(y + 7)
            out.raw("\"/></g>\n")
        case .value(let value):
            let text = value.text
            let fits = fitsMarble(text)
            out.raw("\"><title>")
            out.escaped(text)
            out.raw("</title><circle cx=\"")
            out.number(cx)
            out.raw("\" cy=\"")
            out.number(y)
            out.raw("\" r=\"11\" fill=\"")
            out.raw(Self.color(of: text))
            out.raw("\"/><text x=\"")
            out.number(cx)
            out.raw("\" y=\"")
            out.number(y + 4)
            out.raw(fits && text.utf8.count >= 3 && text.count >= 3 ? "\" class=\"small\">" : "\">")
            if fits { out.escaped(text) } else { out.escaped(keys[text] ?? "?") }
            out.raw("</text></g>\n")
        case .finished:
            out.raw("\"><title>finished</title><line x1=\"")
            out.number(cx)
            out.raw("\" y1=\"")
            out.number(y - 11)
            out.raw("\" x2=\"")
            out.number(cx)
            out.raw("\" y2=\"")
            out.number(y + 11)
            out.raw("\"/></g>\n")
        case .failed(let message, let id):
            out.raw("\"><title>")
            out.escaped(sanitized(MarbleEvent.failureHeading(id: id)))
            out.raw(": ")
            out.escaped(sanitized(message))
            out.raw("</title>")
            out.cross(cx, y, 8)
            out.raw("</g>\n")
        case .cancelled:
            out.raw("\"><title>cancelled</title><circle cx=\"")
            out.number(cx)
            out.raw("\" cy=\"")
            out.number(y)
            out.raw("\" r=\"8\"/><line x1=\"")
            out.number(cx - 5.5)
            out.raw("\" y1=\"")
            out.number(y + 5.5)
            out.raw("\" x2=\"")
            out.number(cx + 5.5)
            out.raw("\" y2=\"")
            out.number(y - 5.5)
            out.raw("\"/></g>\n")
        }
    }

    private func drawAxis(y: Double, into out: inout SVGWriter) {
        let left = axis.origin - Metrics.marbleRadius - 4
        let right = axis.right + Metrics.marbleRadius + 4
        out.raw("<g class=\"axis\">\n")
        out.line(left, y, right, y, stroke: "#9e9e9e", width: 1)
        for tick in axis.ticks {
            out.raw("<g class=\"tick\">")
            out.line(tick.x, y - 4, tick.x, y + 4, stroke: "#9e9e9e", width: 1, newline: false)
            out.text(tick.label, x: tick.x, y: y + 18, size: 11, fill: "#616161", anchor: "middle", newline: false)
            out.raw("</g>\n")
        }
        for b in axis.breaks {
            out.raw("<g class=\"break\" data-from=\"")
            out.raw(String(b.from))
            out.raw("\" data-to=\"")
            out.raw(String(b.to))
            out.raw("\" data-left=\"")
            out.number(b.left)
            out.raw("\" data-right=\"")
            out.number(b.left + TimeAxis.breakWidth)
            out.raw("\">")
            drawZigzag(b, y: y, height: 14, into: &out)
            // Above the axis: the ticks' labels are below it, and one may sit at the break's edge.
            out.text(
                TimeScale.durationText(b.to - b.from), x: b.left + TimeAxis.breakWidth / 2, y: y - 10, size: 11,
                fill: "#616161", anchor: "middle", style: "italic", newline: false)
            out.raw("</g>\n")
        }
        out.text("time →", x: right + 8, y: y + 4, size: 11, fill: "#9e9e9e")
        out.raw("</g>\n")
    }

    /// Where the legend goes: values too long for their marble, then failure messages, wrapped
    /// at the picture's width; and the diagram's bottom under it.
    private func legendLayout(top: Double) -> ([(text: String, fill: StaticString, x: Double, y: Double)], Double) {
        var entries: [(String, StaticString)] = legend.map { ("\($0.0) = \($0.1)", "#212121") }
        for failure in failures { entries.append(("✕ \(failure)", "#c62828")) }
        if rows.contains(where: { !$0.lane.pulls.isEmpty }) {
            entries.append(("▲ = a pull: the consumer called next()", Self.pullColor))
        }
        if let note { entries.append((note, "#616161")) }
        guard !entries.isEmpty else { return ([], top) }
        let maxWidth = right - Metrics.margin
        var x = Metrics.margin
        var y = top + 4
        var items: [(text: String, fill: StaticString, x: Double, y: Double)] = []
        for (entry, fill) in entries {
            let w = Double(entry.terminalWidth) * 0.602 * 13 + 24
            if x > Metrics.margin && x + w > Metrics.margin + maxWidth {
                x = Metrics.margin
                y += Metrics.legendLine
            }
            items.append((entry, fill, x, y + 13))
            x += w
        }
        return (items, y + Metrics.legendLine + 4)
    }

    private static let palette: [StaticString] = ["#ffe082", "#81d4fa", "#a5d6a7", "#f48fb1", "#ce93d8", "#ffab91", "#80cbc4", "#e6ee9c"]

    private static func color(of text: String) -> StaticString {
        // FNV-1a: the same value gets the same colour in every run (Hasher is seeded per process).
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return palette[Int(hash % UInt32(palette.count))]
    }
}

/// Whether a value's text is drawn inside its marble (three characters at most) rather than as
/// a key letter.
private func fitsMarble(_ text: String) -> Bool {
    let bytes = text.utf8.count
    return bytes <= 3 || (bytes <= 12 && text.count <= 3)
}

/// An SVG document built as UTF-8 bytes: literals copied, numbers written digit by digit (a
/// 10,000-event picture is a few megabytes; string interpolation would dominate its cost).
struct SVGWriter {
    var bytes: [UInt8] = []

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ literal: StaticString) {
        if literal.hasPointerRepresentation {
            bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        } else {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A coordinate with at most one decimal.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var tenths = Int64((value * 10).rounded())
        if tenths < 0 {
            bytes.append(UInt8(ascii: "-"))
            tenths = -tenths
        }
        appendDigits(tenths / 10)
        if tenths % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(tenths % 10))
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(Int64(value.magnitude))
    }

    private mutating func appendDigits(_ value: Int64) {
        var count = 1
        var power: Int64 = 10
        while count < 19 && value >= power {
            count += 1
            power *= 10
        }
        let end = bytes.count + count
        for _ in 0..<count { bytes.append(UInt8(ascii: "0")) }
        var v = value
        var i = end - 1
        while v > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
    }

    /// Text safe inside an XML element or a quoted attribute: copied byte by byte while it
    /// needs no escaping (values are mostly a few ASCII digits), else escaped as a whole.
    mutating func escaped(_ text: String) {
        let start = bytes.count
        for byte in text.utf8 {
            if byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 || byte < 0x20 || byte >= 0x80 {
                bytes.removeSubrange(start...)
                bytes.append(contentsOf: PlumbDiagrams.escaped(text).utf8)
                return
            }
            bytes.append(byte)
        }
    }

    mutating func text(
        _ content: String, x: Double, y: Double, size: Double, fill: StaticString = "#212121", anchor: StaticString? = nil,
        weight: StaticString? = nil, style: StaticString? = nil, family: StaticString? = nil, newline: Bool = true
    ) {
        raw("<text x=\"")
        number(x)
        raw("\" y=\"")
        number(y)
        raw("\" font-size=\"")
        number(size)
        raw("\" fill=\"")
        raw(fill)
        raw("\"")
        if let anchor {
            raw(" text-anchor=\"")
            raw(anchor)
            raw("\"")
        }
        if let weight {
            raw(" font-weight=\"")
            raw(weight)
            raw("\"")
        }
        if let style {
            raw(" font-style=\"")
            raw(style)
            raw("\"")
        }
        if let family {
            raw(" font-family=\"")
            raw(family)
            raw("\"")
        }
        raw(">")
        escaped(content)
        raw(newline ? "</text>\n" : "</text>")
    }

    /// Two lines crossing at (`x`, `y`), `r` from the centre each way: a failure's ✕.
    mutating func cross(_ x: Double, _ y: Double, _ r: Double) {
        for (dy1, dy2) in [(-r, r), (r, -r)] {
            raw("<line x1=\"")
            number(x - r)
            raw("\" y1=\"")
            number(y + dy1)
            raw("\" x2=\"")
            number(x + r)
            raw("\" y2=\"")
            number(y + dy2)
            raw("\"/>")
        }
    }

    mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: StaticString, width: Double, dash: StaticString? = nil,
        newline: Bool = true
    ) {
        raw("<line x1=\"")
        number(x1)
        raw("\" y1=\"")
        number(y1)
        raw("\" x2=\"")
        number(x2)
        raw("\" y2=\"")
        number(y2)
        raw("\" stroke=\"")
        raw(stroke)
        raw("\" stroke-width=\"")
        number(width)
        raw("\" stroke-linecap=\"round\"")
        if let dash {
            raw(" stroke-dasharray=\"")
            raw(dash)
            raw("\"")
        }
        raw(newline ? "/>\n" : "/>")
    }
}

/// Text safe inside an XML element or a quoted attribute; characters XML 1.0 forbids become `�`.
func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 < 0x20 || $0 >= 0x80 }) else {
        return text
    }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            let v = scalar.value
            let allowed = v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
            out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
        }
    }
    return out
}
