/// `expect marbles`: a marble string compared with a run, value by value (not spelling by
/// spelling: `'a'` and `a` are one value; `'10'`, the Int 10, is not the String "10"), over any
/// number of frames (a 27-hour run at 100 ms frames, or `frame: 1ns`), with a message of bounded
/// size: long stretches of empty frames are elided, the text is capped. It reads the pipeline's
/// output events only: an async stage's pulls (its consumer's `next()` calls, drawn as `↑` in the
/// diagrams) are not events, so one pipeline's expected marbles do not depend on who pulls.
///
/// ```swift
/// let c = MarbleComparison(expected: "-'a'-b-|", events: run, frame: 100_000_000)
/// c.holds      // true when the run's frames are the string's
/// c.actual     // the run as marbles, elided: "---- … 971,992 frames with no event … ----(0|)"
/// c.diff       // expected / actual / caret lines, then a sentence per differing frame
/// ```
public struct MarbleComparison: Sendable {
    public typealias Token = MarbleNotation.Token

    /// Frames with events, by index, and how many frames there are in all (sparse: a run of a
    /// billion empty frames costs nothing).
    struct Frames: Equatable {
        var count = 0
        var events: [Int: [Token]] = [:]

        init(_ frames: [[Token]]) {
            count = frames.count
            for (i, tokens) in frames.enumerated() where !tokens.isEmpty { events[i] = tokens }
        }

        /// A run's events in frames of `frame` ns from the subscription; nothing after the completion.
        init(events timeline: [(time: Int64, token: Token)], frame: Int64) {
            for (time, token) in timeline {
                let index = Int(Swift.max(0, time) / Swift.max(1, frame))
                events[index, default: []].append(token)
                count = Swift.max(count, index + 1)
                if token == .finished || token == .failed { break }
            }
        }

        subscript(i: Int) -> [Token] { events[i] ?? [] }
    }

    /// Whether the run is what the string says.
    public let holds: Bool
    /// The run as marble notation, long empty stretches elided.
    public let actual: String
    /// Aligned `expected`/`actual` lines, a caret under the first difference, and what differs.
    public let diff: [String]

    /// Largest message text kept, per line: beyond it, a note of how much was cut.
    static let maxLineCharacters = 2_000
    /// Empty frames kept on each side of an elided stretch.
    static let kept = 3

    public init(expected text: String, events: [(time: Int64, token: Token)], frame: Int64) {
        let expected = (try? MarbleNotation.parse(text).get()).map(Frames.init) ?? Frames([])
        let run = Frames(events: events, frame: frame)
        // Frames with no event are alike whether a diagram is still going or has ended there:
        // `-a--` holds for a run whose last event is `a` in frame 1.
        holds = expected.events == run.events
        actual = Self.capped(Self.text(run))
        diff = holds ? [] : Self.lines(expected, run, frame: frame)
    }

    /// A frame's text: `-`, a glyph, or a group.
    static func text(_ tokens: [Token]) -> String {
        switch tokens.count {
        case 0: return "-"
        case 1: return MarbleNotation.text(tokens[0])
        default: return "(" + tokens.map(MarbleNotation.text).joined() + ")"
        }
    }

    /// The frame indices worth showing: every frame with an event in either, a few empty frames
    /// around them; a gap between two shown frames is one elided stretch.
    static func shown(_ a: Frames, _ b: Frames) -> [Int] {
        let total = Swift.max(a.count, b.count)
        var wanted = Set<Int>()
        for i in Set(a.events.keys).union(b.events.keys) {
            for j in Swift.max(0, i - kept)...Swift.min(total - 1, i + kept) { wanted.insert(j) }
        }
        for j in 0..<Swift.min(total, kept) { wanted.insert(j) }
        for j in Swift.max(0, total - kept)..<total { wanted.insert(j) }
        return wanted.sorted()
    }

    /// `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    static func elision(_ n: Int) -> String { " … \(grouped(n)) frame\(n == 1 ? "" : "s") with no event … " }

    /// `n` frames with no event as written: dashes, or the elision when that is shorter.
    static func empty(_ n: Int) -> String {
        let elided = elision(n)
        return elided.count < n ? elided : String(repeating: "-", count: n)
    }

    /// The run as text, with stretches of empty frames elided where that shortens it.
    static func text(_ run: Frames) -> String {
        var out = ""
        var previous = -1
        for i in shown(run, run) {
            out += empty(i - previous - 1)
            out += text(run[i])
            previous = i
        }
        return out
    }

    static func capped(_ line: String) -> String {
        guard line.count > maxLineCharacters else { return line }
        return String(line.prefix(maxLineCharacters)) + " … (\(grouped(line.count - maxLineCharacters)) more characters)"
    }

    /// The aligned rows, a caret under the first difference, and one sentence per frame that
    /// differs (only frames where the two have different events, first one first; six at most,
    /// then how many more there are).
    static func lines(_ e: Frames, _ a: Frames, frame: Int64) -> [String] {
        var top = "expected ", bottom = "actual   ", caret = "         "
        var firstDifference: Int?
        var previous = -1
        // A row's part of `n` frames from `first`: its own empty frames, nothing past its end.
        func stretch(_ frames: Frames, from first: Int, count n: Int) -> String {
            empty(Swift.min(n, Swift.max(0, frames.count - first)))
        }
        func append(_ x: String, _ y: String, differs: Bool) {
            let width = Swift.max(x.count, y.count)
            top += x.padding(toLength: width, withPad: " ", startingAt: 0)
            bottom += y.padding(toLength: width, withPad: " ", startingAt: 0)
            guard firstDifference == nil else { return }
            caret += differs ? "^" : String(repeating: " ", count: width)
        }
        for i in shown(e, a) {
            let n = i - previous - 1
            if n > 0 { append(stretch(e, from: previous + 1, count: n), stretch(a, from: previous + 1, count: n), differs: false) }
            previous = i
            let (x, y) = (i < e.count ? text(e[i]) : "", i < a.count ? text(a[i]) : "")
            let differs = e[i] != a[i]
            append(x.isEmpty && y.isEmpty ? " " : x, y, differs: differs)
            if differs && firstDifference == nil { firstDifference = i }
        }
        let differing = Set(e.events.keys).union(a.events.keys).filter { e[$0] != a[$0] }.sorted()
        let shownSentences = 6
        var sentences = differing.prefix(shownSentences).map { sentence(frame: $0, e, a, frameLength: frame) }
        if differing.count > shownSentences {
            let more = differing.count - shownSentences
            sentences.append("… and \(grouped(more)) more frame\(more == 1 ? "" : "s") that differ\(more == 1 ? "s" : "")")
        }
        func trimmed(_ line: String) -> String {
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        return [capped(trimmed(top)), capped(trimmed(bottom)), capped(caret)] + sentences
    }

    /// What differs in frame `i`.
    private static func sentence(frame i: Int, _ e: Frames, _ a: Frames, frameLength: Int64) -> String {
        let when = "frame \(grouped(i)) (\(Printer.duration(Int64(i) &* frameLength)))"
        let (x, y) = (e[i].isEmpty && i >= e.count ? "" : text(e[i]), a[i].isEmpty && i >= a.count ? "" : text(a[i]))
        if x == y {
            // Spelt alike, not the same values: say which kinds.
            let kinds =
                zip(e[i], a[i]).first { $0 != $1 }.map { pair -> String in
                    "expected \(describe(pair.0)), got \(describe(pair.1))"
                } ?? "expected \(x), got \(y)"
            return "\(when): \(kinds) (only the kind differs)"
        }
        return "\(when): expected \(describe(x)), got \(describe(y))"
    }

    static func describe(_ token: Token) -> String {
        switch token {
        case .value(let v): v.typed
        case .finished: "finished"
        case .failed: "a failure"
        }
    }

    static func describe(_ frameText: String) -> String {
        switch frameText {
        case "": "nothing (the diagram had ended)"
        case "-": "no event"
        case "|": "finished"
        case "#": "a failure"
        default: frameText
        }
    }
}
