/// Marble diagrams as terminal lines: a ruler, one row per lane, a footer, and the legend.
///
/// ```
///                         0   200 400 ms
/// [0] interval 100ms      ^-0-1-2-(3!)
/// [1] take 4              ^-0-1-2-(3|)
/// [2] map { $0 * 2 }      ^-0-2-4-(6|)
/// [3] filter { $0 > 2 }   ^-----4-(6|)
/// 1 column = 50 ms; a group ( ) is one instant
/// ```
///
/// An async stage's lane gets a line under it with a `↑` in each column where its consumer
/// called `next()` (a pull), and the diagram a legend line saying so: behind a slow consumer,
/// each of `values`' values comes after its `↑` (it asks its publisher then), each of `stream`'s
/// at it (from the stream's buffer).
public enum MarbleText {
    /// Renders `run` as lines of at most `width` terminal columns.
    ///
    /// - Parameters:
    ///   - run: The recorded run (a lane that has not ended is drawn live up to `run.end`).
    ///   - width: The terminal's width (80 when unknown; at least `MarbleLayout.minimumWidth`).
    ///   - color: Whether to use ANSI colours: failures red, cancels yellow, the ruler dim.
    /// - Returns: The lines, without trailing newlines or trailing spaces.
    ///
    /// ```swift
    /// for line in MarbleText.render(run, width: 80, color: false) { print(line) }
    /// ```
    public static func render(_ run: MarbleRun, width: Int, color: Bool) -> [String] {
        render(MarbleLayout(run, width: width), color: color)
    }

    /// Renders a layout made earlier (to read its step or rows as well as print it).
    ///
    /// ```swift
    /// let layout = MarbleLayout(run, width: 80)
    /// let lines = MarbleText.render(layout, color: false)
    /// ```
    public static func render(_ layout: MarbleLayout, color: Bool) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(layout.rows.count + 4)
        let indent = String(repeating: " ", count: layout.labelWidth)

        var ruler = Canvas(width: layout.unitOffset + layout.unit.count)
        for mark in layout.marks { ruler.write(mark.text, at: mark.offset, style: .dim) }
        ruler.write(layout.unit, at: layout.unitOffset, style: .dim)
        lines.append(indent + ruler.rendered(color: color))

        for row in layout.rows {
            lines.append(trimmed(padded(row.label, toWidth: layout.labelWidth) + lane(row, layout).rendered(color: color)))
            if !row.pulls.isEmpty {
                var marks = Canvas(width: layout.laneWidth)
                for offset in row.pulls { marks.write(pullGlyph, at: offset, style: .pull) }
                lines.append(trimmed(indent + marks.rendered(color: color)))
            }
        }

        // Under the lanes, its clause shortened to fit there; else from the left edge.
        let footer = layout.footer(fitting: layout.width - layout.labelWidth)
        let footerIndent = layout.labelWidth + footer.count <= layout.width ? indent : ""
        lines.append(footerIndent + paint(footer, .dim, color))

        lines += wrapped(layout.legend.map { "\($0.key)=\($0.text)" }, width: layout.width)
        if layout.rows.contains(where: { !$0.pulls.isEmpty }) {
            lines.append(paint(shortened(pullLegend, toWidth: layout.width), .pull, color))
        }
        for line in failureLines(layout) { lines.append(paint(line, .failure, color)) }
        return lines
    }

    /// The mark drawn on the line under an async stage's lane where its consumer called `next()`.
    public static let pullGlyph: Character = "↑"
    /// The legend line of a diagram with pulls.
    public static let pullLegend = "↑ = a pull: the consumer called next()"

    private static func lane(_ row: MarbleLayout.Row, _ layout: MarbleLayout) -> Canvas {
        var canvas = Canvas(width: layout.laneWidth)
        guard let span = row.span else { return canvas }
        canvas.fill(span, with: "-")
        for gap in layout.gaps where span.contains(gap.offset) {
            canvas.write(gap.text, at: gap.offset + 1, style: .plain)
        }
        for cell in row.cells {
            var x = cell.offset
            let text = cell.text
            for character in text {
                let style: Style
                switch character {
                case "#": style = cell.items.contains(where: { if case .failed = $0 { true } else { false } }) ? .failure : .plain
                case "!": style = cell.items.contains(.cancelled) ? .cancel : .plain
                default: style = .plain
                }
                canvas.write(character, at: x, style: style)
                x += 1
            }
        }
        return canvas
    }

    private static func failureLines(_ layout: MarbleLayout) -> [String] {
        let many = layout.failures.count > 1
        return layout.failures.map { failure in
            var line = "#: \(failure.text)"
            if many {
                let names = failure.rows.map { layout.rows[$0].label.trimmingTreePrefix }
                line += " (\(names.joined(separator: ", ")))"
            }
            return shortened(line, toWidth: layout.width)
        }
    }

    /// Entries joined by two spaces, wrapped at `width`; an entry wider than a line is shortened.
    private static func wrapped(_ entries: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for entry in entries {
            let text = shortened(entry, toWidth: width)
            let w = text.terminalWidth
            if used > 0 && used + 2 + w > width {
                lines.append(line)
                line = ""
                used = 0
            }
            if used > 0 {
                line += "  "
                used += 2
            }
            line += text
            used += w
        }
        if used > 0 { lines.append(line) }
        return lines
    }

    private static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    fileprivate enum Style { case plain, dim, failure, cancel, pull }

    fileprivate static func paint(_ text: String, _ style: Style, _ color: Bool) -> String {
        guard color, let code = style.ansi else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// One row of cells with a style each; rendered with runs of the same style coloured once.
    private struct Canvas {
        var characters: [Character]
        var styles: [Style]

        init(width: Int) {
            characters = Array(repeating: " ", count: max(0, width))
            styles = Array(repeating: .plain, count: max(0, width))
        }

        mutating func fill(_ range: Range<Int>, with character: Character) {
            for x in range.clamped(to: 0..<characters.count) { characters[x] = character }
        }

        mutating func write(_ character: Character, at x: Int, style: Style) {
            guard characters.indices.contains(x) else { return }
            characters[x] = character
            styles[x] = style
        }

        mutating func write(_ text: String, at x: Int, style: Style) {
            for (k, character) in text.enumerated() { write(character, at: x + k, style: style) }
        }

        func rendered(color: Bool) -> String {
            var end = characters.count
            while end > 0 && characters[end - 1] == " " { end -= 1 }
            guard color else { return String(characters[..<end]) }
            var out = ""
            var start = 0
            while start < end {
                var stop = start + 1
                while stop < end && styles[stop] == styles[start] { stop += 1 }
                out += MarbleText.paint(String(characters[start..<stop]), styles[start], true)
                start = stop
            }
            return out
        }
    }
}

extension MarbleText.Style {
    fileprivate var ansi: String? {
        switch self {
        case .plain: return nil
        case .dim: return "2"
        case .failure: return "31"
        case .cancel: return "33"
        case .pull: return "36"
        }
    }
}

extension String {
    /// The label without its tree prefix (`    ├ inner 1` → `inner 1`).
    var trimmingTreePrefix: String {
        String(drop(while: { $0 == " " || $0 == "├" || $0 == "└" || $0 == "│" }))
    }
}
