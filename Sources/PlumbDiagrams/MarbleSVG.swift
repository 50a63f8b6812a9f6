/// Marble diagrams as one standalone SVG document, for slides: a lane per stage with its label,
/// marbles as circles with their value text, completion bars, error crosses, cancel marks,
/// inner and attempt lanes indented under their stage, and a time axis.
///
/// The picture uses the same `MarbleLayout` as the terminal (at 160 columns), so both agree on
/// groups, keys and collapsed idle stretches. Labels, values, the legend and the axis are
/// `<text>` elements, so screen readers and tests can read them.
public enum MarbleSVG {
    /// Renders the runs as diagrams stacked top to bottom, each under its title.
    ///
    /// - Parameters:
    ///   - runs: The recorded runs (a script's foreground pipelines, in order).
    ///   - titles: A title per run (the pipeline's text); missing or empty ones are left out.
    /// - Returns: The SVG document, starting with its XML declaration.
    ///
    /// ```swift
    /// let svg = MarbleSVG.render([run], titles: ["interval 100ms | take 4"])
    /// try svg.write(toFile: "out.svg", atomically: true, encoding: .utf8)
    /// ```
    public static func render(_ runs: [MarbleRun], titles: [String]) -> String {
        var body = ""
        var y = Metrics.margin
        var width = 320.0
        for (n, run) in runs.enumerated() {
            let title = n < titles.count ? sanitized(titles[n]) : ""
            let drawn = Diagram(layout: MarbleLayout(run, width: Metrics.columns), title: title, top: y)
            body += drawn.svg
            y = drawn.bottom + Metrics.diagramGap
            width = max(width, drawn.right + Metrics.margin)
        }
        let height = y - Metrics.diagramGap + Metrics.margin
        let summary = titles.isEmpty ? "Marble diagrams" : "Marble diagrams: " + titles.map(sanitized).joined(separator: "; ")
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" xml:space=\"preserve\""
        out += " width=\"\(number(width))\" height=\"\(number(height))\" viewBox=\"0 0 \(number(width)) \(number(height))\""
        out += " role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n"
        out += "<title>\(escaped(summary))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"#ffffff\"/>\n"
        out += body
        out += "</svg>\n"
        return out
    }
}

private enum Metrics {
    static let columns = 160
    static let margin = 20.0
    static let diagramGap = 28.0
    /// Pixels per terminal column of the layout.
    static let unit = 24.0
    static let rowHeight = 44.0
    static let labelFont = 14.0
    /// DejaVu Sans Mono's advance is 0.602 em.
    static let labelAdvance = 0.602 * labelFont
    static let titleHeight = 30.0
    static let marbleRadius = 11.0
    static let axisHeight = 40.0
    static let legendLine = 20.0
}

private struct Diagram {
    let layout: MarbleLayout
    var svg = ""
    var bottom = 0.0
    var right = 0.0

    private var lanesX = 0.0

    init(layout: MarbleLayout, title: String, top: Double) {
        self.layout = layout
        var y = top
        svg += "<g class=\"diagram\">\n"
        if !title.isEmpty {
            svg += text(title, x: Metrics.margin, y: y + 18, size: 16, weight: "bold", family: "DejaVu Sans, Helvetica, Arial, sans-serif")
            y += Metrics.titleHeight
        }
        let labelChars = layout.rows.map { $0.label.terminalWidth }.max() ?? 0
        lanesX = Metrics.margin + Double(labelChars) * Metrics.labelAdvance + 28
        let lanesRight = x(layout.laneWidth) + Metrics.unit / 2
        // Room for the axis's "time →" after the lanes.
        right = max(lanesRight + 64, lanesX + 200)

        for (r, row) in layout.rows.enumerated() {
            drawRow(row, index: r, y: y + Double(r) * Metrics.rowHeight + Metrics.rowHeight / 2)
        }
        y += Double(layout.rows.count) * Metrics.rowHeight
        drawAxis(y: y + 8)
        y += Metrics.axisHeight
        y = drawLegend(y: y)
        svg += "</g>\n"
        bottom = y
    }

    /// The centre of the layout's column at `offset`.
    private func x(_ offset: Int) -> Double { lanesX + Double(offset) * Metrics.unit }

    private mutating func drawRow(_ row: MarbleLayout.Row, index: Int, y: Double) {
        let indent = row.label.prefix(while: { $0 == " " }).count
        let label = String(row.label.dropFirst(indent))
        let labelX = Metrics.margin + Double(indent) * Metrics.labelAdvance
        let sub = row.depth > 0
        svg += text(label, x: labelX, y: y + 5, size: Metrics.labelFont, fill: sub ? "#555555" : "#111111")
        guard let span = row.span, let lastCell = row.cells.last else { return }

        let ended = lastCell.items.last.map(\.isTerminal) ?? false
        let start = x(span.lowerBound)
        let end = ended ? x(lastCell.offset + lastCell.text.count - (lastCell.text.hasSuffix(")") ? 2 : 1)) : x(layout.laneWidth)
        let stroke = sub ? "#9e9e9e" : "#424242"
        svg += line(start, y, end, y, stroke: stroke, width: sub ? 1.5 : 2, dash: row.kind == .attempt ? "6 4" : nil)
        if !ended {
            // Still running: an arrowhead at the lane's end.
            svg += "<path d=\"M\(number(end - 8)) \(number(y - 5)) L\(number(end)) \(number(y)) L\(number(end - 8)) \(number(y + 5))\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\"/>\n"
        }
        for gap in layout.gaps where span.contains(gap.offset) {
            drawGap(gap, y: y, height: 22, labelled: false, stroke: stroke)
        }
        for cell in row.cells { drawCell(cell, y: y) }
    }

    /// A collapsed idle stretch: the line broken by two slashes, dotted between them on a lane,
    /// and on the axis labelled with how long it lasted.
    private mutating func drawGap(_ gap: MarbleLayout.Gap, y: Double, height: Double, labelled: Bool, stroke: String) {
        let left = x(gap.offset) + 2
        let right = x(gap.offset + gap.width - 1) - 2
        svg += "<rect x=\"\(number(left - 4))\" y=\"\(number(y - height / 2))\" width=\"\(number(right - left + 8))\" height=\"\(number(height))\" fill=\"#ffffff\"/>\n"
        for edge in [left, right] {
            svg += line(edge - 3, y + 7, edge + 3, y - 7, stroke: "#757575", width: 1.5)
        }
        if labelled {
            svg += text(gap.text.trimmingCharacters(), x: (left + right) / 2, y: y + 4, size: 12, fill: "#616161", anchor: "middle", style: "italic")
        } else {
            svg += line(left + 8, y, right - 8, y, stroke: stroke, width: 1.5, dash: "1 5")
        }
    }

    private mutating func drawCell(_ cell: MarbleLayout.Cell, y: Double) {
        let glyphs = Array(cell.text)
        var positions: [Int] = []
        for (k, glyph) in glyphs.enumerated() where glyph != "(" && glyph != ")" { positions.append(cell.offset + k) }
        if let open = glyphs.firstIndex(of: "(") {
            let left = x(cell.offset + open + 1) - Metrics.unit / 2 - 1
            let right = x(cell.offset + glyphs.count - 2) + Metrics.unit / 2 + 1
            svg += "<rect x=\"\(number(left))\" y=\"\(number(y - 15))\" width=\"\(number(right - left))\" height=\"30\" rx=\"15\" fill=\"#e8eaf6\" stroke=\"#9fa8da\" stroke-width=\"1\"/>\n"
        }
        for (item, offset) in zip(cell.items, positions) { drawItem(item, cx: x(offset), y: y) }
    }

    private mutating func drawItem(_ item: MarbleLayout.Item, cx: Double, y: Double) {
        switch item {
        case .subscribed:
            svg += "<path d=\"M\(number(cx - 7)) \(number(y + 7)) L\(number(cx)) \(number(y - 6)) L\(number(cx + 7)) \(number(y + 7))\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2.5\" stroke-linejoin=\"round\"><title>subscribed</title></path>\n"
        case .value(let key, let valueText):
            let shown = valueText.count <= 3 ? valueText : String(key)
            svg += "<g class=\"marble\"><title>\(escaped(valueText))</title>"
            svg += "<circle cx=\"\(number(cx))\" cy=\"\(number(y))\" r=\"\(number(Metrics.marbleRadius))\" fill=\"\(color(of: valueText))\" stroke=\"#263238\" stroke-width=\"1.5\"/>"
            svg += text(shown, x: cx, y: y + 4, size: shown.count >= 3 ? 9.5 : 12, fill: "#000000", anchor: "middle", weight: "bold")
            svg += "</g>\n"
        case .finished:
            svg += line(cx, y - 14, cx, y + 14, stroke: "#212121", width: 3, title: "finished")
        case .failed(let message):
            svg += "<g class=\"failure\"><title>failed: \(escaped(message))</title>"
            svg += line(cx - 8, y - 8, cx + 8, y + 8, stroke: "#d32f2f", width: 3.5)
            svg += line(cx - 8, y + 8, cx + 8, y - 8, stroke: "#d32f2f", width: 3.5)
            svg += "</g>\n"
        case .cancelled:
            svg += "<g class=\"cancel\"><title>cancelled</title>"
            svg += "<circle cx=\"\(number(cx))\" cy=\"\(number(y))\" r=\"8\" fill=\"#ffffff\" stroke=\"#ef6c00\" stroke-width=\"2.5\"/>"
            svg += line(cx - 5.5, y + 5.5, cx + 5.5, y - 5.5, stroke: "#ef6c00", width: 2.5)
            svg += "</g>\n"
        case .more(let count):
            svg += "<g><title>\(count) more events</title>" + text("…", x: cx, y: y + 5, size: 16, fill: "#424242", anchor: "middle") + "</g>\n"
        }
    }

    private mutating func drawAxis(y: Double) {
        let left = x(0) - Metrics.unit / 2
        let right = x(layout.laneWidth) + Metrics.unit / 2
        svg += "<g class=\"axis\">\n"
        svg += line(left, y, right, y, stroke: "#9e9e9e", width: 1)
        for mark in layout.marks {
            let cx = x(mark.offset)
            svg += line(cx, y - 4, cx, y + 4, stroke: "#9e9e9e", width: 1)
            let label = mark.time == 0 ? "0" : TimeScale.durationText(mark.time)
            svg += text(label, x: cx, y: y + 18, size: 11, fill: "#616161", anchor: "middle")
        }
        for gap in layout.gaps { drawGap(gap, y: y, height: 12, labelled: true, stroke: "#9e9e9e") }
        svg += text("time →", x: right + 10, y: y + 4, size: 11, fill: "#9e9e9e")
        svg += "</g>\n"
    }

    /// Values too long for their marble, then failure messages; returns the bottom.
    private mutating func drawLegend(y top: Double) -> Double {
        var y = top
        var entries: [(String, String)] = []
        for entry in layout.legend where entry.text.count > 3 { entries.append(("\(entry.key) = \(entry.text)", "#212121")) }
        for failure in layout.failures { entries.append(("✕ \(failure.message)", "#c62828")) }
        guard !entries.isEmpty else { return y }
        let maxWidth = right - Metrics.margin
        var x = Metrics.margin
        y += 4
        for (entry, fill) in entries {
            let w = Double(entry.terminalWidth) * 0.602 * 13 + 24
            if x > Metrics.margin && x + w > Metrics.margin + maxWidth {
                x = Metrics.margin
                y += Metrics.legendLine
            }
            svg += text(entry, x: x, y: y + 13, size: 13, fill: fill)
            x += w
        }
        return y + Metrics.legendLine + 4
    }

    private func color(of text: String) -> String {
        let palette = ["#ffe082", "#81d4fa", "#a5d6a7", "#f48fb1", "#ce93d8", "#ffab91", "#80cbc4", "#e6ee9c"]
        // FNV-1a: the same value gets the same colour in every run (Hasher is seeded per process).
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return palette[Int(hash % UInt32(palette.count))]
    }

    private func text(
        _ content: String, x: Double, y: Double, size: Double, fill: String = "#212121", anchor: String? = nil,
        weight: String? = nil, style: String? = nil, family: String? = nil
    ) -> String {
        var out = "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" fill=\"\(fill)\""
        if let anchor { out += " text-anchor=\"\(anchor)\"" }
        if let weight { out += " font-weight=\"\(weight)\"" }
        if let style { out += " font-style=\"\(style)\"" }
        if let family { out += " font-family=\"\(escaped(family))\"" }
        return out + ">\(escaped(content))</text>\n"
    }

    private func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double, dash: String? = nil,
        title: String? = nil
    ) -> String {
        var out = "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\" stroke-linecap=\"round\""
        if let dash { out += " stroke-dasharray=\"\(dash)\"" }
        guard let title else { return out + "/>\n" }
        return out + "><title>\(escaped(title))</title></line>\n"
    }
}

extension MarbleLayout.Item {
    var isTerminal: Bool {
        switch self {
        case .finished, .failed, .cancelled: return true
        case .subscribed, .value, .more: return false
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// A coordinate with at most one decimal.
private func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    if tenths == (tenths / 10).rounded() * 10 { return String(Int(tenths / 10)) }
    return String(tenths / 10)
}

/// Text safe inside an XML element or a quoted attribute; characters XML 1.0 forbids become `�`.
func escaped(_ text: String) -> String {
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
