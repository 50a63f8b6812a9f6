import PipeLanguage

/// How events are printed: text for people, or one JSON object per line for tools.
enum OutputFormat: String, Sendable {
    case text, jsonl
}

/// What a finished pipeline did, for the closing summary line.
struct RunSummary: Sendable {
    var count: Int
    var duration: Duration
}

/// Formats pipeline events into bytes, appending to a buffer (no intermediate strings on the hot
/// path for the common `value <int>` event).
struct EventFormatter: Sendable {
    var format: OutputFormat
    var style: Style

    /// Appends one event line.
    /// - Parameters:
    ///   - job: 0 for the foreground pipeline, otherwise the background job number (printed as `[N]`).
    ///   - time: time since the pipeline was subscribed.
    ///   - summary: set for terminal events: values seen and total duration.
    func write(_ event: PipelineEvent, job: Int, time: Duration, summary: RunSummary?, into out: inout [UInt8]) {
        switch format {
        case .text: writeText(event, job: job, time: time, summary: summary, into: &out)
        case .jsonl: writeJSON(event, job: job, time: time, summary: summary, into: &out)
        }
    }

    /// Whether `value <int>` lines take the hot path (`writeIntValue`): all but coloured text.
    var writesIntValuesInPlace: Bool { format == .jsonl || !style.enabled }

    /// The longest line `writeIntValue` writes (a jsonl `value <int>` line with a 20-digit job and
    /// value is 106 bytes).
    static let maxIntValueLine = 128

    /// The hot path: one `value <int>` line (text without colour, or jsonl), written in place at
    /// `base` (which has room for `maxIntValueLine` bytes). Returns how many bytes it wrote.
    /// Only when `writesIntValuesInPlace`.
    ///
    /// Writes exactly what `write(_:job:time:summary:into:)` writes for the same event (a test
    /// holds the two together).
    @inline(__always)
    func writeIntValue(_ int: Int, next: Bool, job: Int, nanoseconds ns: Int64, at base: UnsafeMutablePointer<UInt8>) -> Int {
        var line = LineWriter(base)
        switch format {
        case .text:
            if job == 0 {
                line.bytes("  +")
            } else {
                line.byte(UInt8(ascii: "["))
                line.int(job)
                line.bytes("] +")
            }
            line.relativeTimeDigits(nanoseconds: ns)
            if next { line.bytes("s  next ") } else { line.bytes("s  value ") }
            line.int(int)
            line.byte(10)
        case .jsonl:
            line.bytes("{\"job\":")
            line.int(job)
            line.bytes(",\"t\":")
            line.seconds(nanoseconds: ns)
            if next {
                line.bytes(",\"event\":\"value\",\"via\":\"next\",\"value\":")
            } else {
                line.bytes(",\"event\":\"value\",\"value\":")
            }
            line.int(int)
            line.bytes("}\n")
        }
        return line.count
    }

    /// `writeIntValue(_:next:job:nanoseconds:at:)` appended to `out`; false (nothing written)
    /// when the line needs the general path (coloured text).
    func writeIntValue(_ int: Int, next: Bool, job: Int, nanoseconds ns: Int64, into out: inout [UInt8]) -> Bool {
        guard writesIntValuesInPlace else { return false }
        LineWriter.append(to: &out) { line in
            line.count = writeIntValue(int, next: next, job: job, nanoseconds: ns, at: line.base)
        }
        return true
    }

    // MARK: Text

    private func writeText(_ event: PipelineEvent, job: Int, time: Duration, summary: RunSummary?, into out: inout [UInt8]) {
        // Lane events are drawn as a diagram, never as text lines.
        if case .lane = event { return }
        let space = UInt8(ascii: " ")
        if job == 0 {
            out.append(space)
            out.append(space)
        } else {
            out.append(UInt8(ascii: "["))
            Self.appendInt(job, to: &out)
            out.append(UInt8(ascii: "]"))
            out.append(space)
        }
        if style.enabled {
            out.append(contentsOf: style.dim(Self.relativeTime(time)).utf8)
        } else {
            Self.appendRelativeTime(time, to: &out)
        }
        out.append(space)
        out.append(space)
        switch event {
        case .value(let value), .next(let value):
            if case .next = event { out.append(contentsOf: Self.nextWord) } else { out.append(contentsOf: Self.valueWord) }
            if case .int(let int) = value {
                Self.appendInt(int, to: &out)
            } else {
                // Values print escaped already; a C1 control (U+009B, a CSI) is shown as �.
                out.append(contentsOf: TerminalText.escaped(value.description).utf8)
            }
        case .subscribed:
            out.append(contentsOf: style.dim("subscribed").utf8)
        case .finished:
            appendTerminal("finished", styled: style.green("finished"), summary: summary, into: &out)
        case .failed(let error):
            // `description` names the closure's position when the error came from one; an error
            // the language raised carries its id, as the checker's do (`error[E602]`), so
            // `plumb help E602` explains it. A `fail "…"` of the user's has none.
            let text = (error.id.map { "failed[\($0.code)]: " } ?? "failed: ") + TerminalText.escaped(error.description)
            appendTerminal(text, styled: style.red(text), summary: summary, into: &out)
        case .cancelled:
            appendTerminal("cancelled", styled: style.yellow("cancelled"), summary: summary, into: &out)
        case .lane:
            break
        case .output(let kind, _, let raw):
            let text = TerminalText.escaped(raw)
            switch kind {
            case .print: out.append(contentsOf: style.dim(text).utf8)
            case .hook: out.append(contentsOf: style.magenta("▸ " + text).utf8)
            case .note: out.append(contentsOf: style.dim("note: " + text).utf8)
            }
        case .trace(let stage, let name, let depth, let event, let thread):
            let indent = String(repeating: "  ", count: max(0, depth))
            let text = "│ \(indent)\(name)#\(stage) \(event)"
            out.append(contentsOf: style.cyan(text).utf8)
            out.append(contentsOf: style.dim("  [\(thread)]").utf8)
        }
        out.append(10)
    }

    private static let valueWord = Array("value ".utf8)
    private static let nextWord = Array("next ".utf8)

    private func appendTerminal(_ plain: String, styled: String, summary: RunSummary?, into out: inout [UInt8]) {
        out.append(contentsOf: styled.utf8)
        guard let summary else { return }
        let pad = max(2, 24 - plain.count)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad))
        out.append(contentsOf: style.dim(Self.summaryText(summary)).utf8)
    }

    /// `3 values in 101 ms`.
    static func summaryText(_ summary: RunSummary) -> String {
        let values = summary.count == 1 ? "1 value" : "\(summary.count) values"
        return "\(values) in \(durationText(summary.duration))"
    }

    /// `0.4 ms`, `101 ms`, `12.3 s`: readable, and exact on the virtual clock.
    static func durationText(_ duration: Duration) -> String {
        let ns = max(0, nanoseconds(duration))
        if ns == 0 { return "0 ms" }
        if ns < 1_000_000 {
            let hundredths = max(1, (ns + 5_000) / 10_000)
            return "0.\(hundredths < 10 ? "0" : "")\(hundredths) ms"
        }
        if ns < 10_000_000 {
            let tenths = (ns + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        if ns < 10_000_000_000 {
            return "\((ns + 500_000) / 1_000_000) ms"
        }
        let tenths = (ns + 50_000_000) / 100_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `+0.101s`: milliseconds, truncated so that a time never reads later than it was.
    static func relativeTime(_ time: Duration) -> String {
        var bytes: [UInt8] = []
        appendRelativeTime(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `+S.mmms` without building a string (this runs once per printed event).
    static func appendRelativeTime(_ time: Duration, to out: inout [UInt8]) {
        LineWriter.append(to: &out) { $0.relativeTime(nanoseconds: nanoseconds(time)) }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    static func appendInt(_ value: Int, to out: inout [UInt8]) {
        LineWriter.append(to: &out) { $0.int(value) }
    }

    // MARK: JSON lines

    private func writeJSON(_ event: PipelineEvent, job: Int, time: Duration, summary: RunSummary?, into out: inout [UInt8]) {
        out.append(contentsOf: "{\"job\":".utf8)
        Self.appendInt(job, to: &out)
        out.append(contentsOf: ",\"t\":".utf8)
        Self.appendSeconds(time, to: &out)
        out.append(contentsOf: ",\"event\":".utf8)
        switch event {
        case .subscribed:
            out.append(contentsOf: "\"subscribed\"".utf8)
        case .value(let value):
            out.append(contentsOf: "\"value\",\"value\":".utf8)
            Self.appendJSON(value, to: &out)
        case .next(let value):
            out.append(contentsOf: "\"value\",\"via\":\"next\",\"value\":".utf8)
            Self.appendJSON(value, to: &out)
        case .finished:
            out.append(contentsOf: "\"finished\"".utf8)
        case .failed(let error):
            // `id` is the error's code (`E602`) when the language raised it, absent for `fail "…"`.
            out.append(contentsOf: "\"failed\",\"error\":".utf8)
            Self.appendJSONString(error.message, to: &out)
            if let id = error.id {
                out.append(contentsOf: ",\"id\":".utf8)
                Self.appendJSONString(id.code, to: &out)
            }
            if let location = error.location {
                out.append(contentsOf: ",\"at\":".utf8)
                Self.appendJSONString("\(location)", to: &out)
            }
        case .cancelled:
            out.append(contentsOf: "\"cancelled\"".utf8)
        case .lane(let lane, let signal):
            out.append(contentsOf: "\"lane\",\"lane\":".utf8)
            Self.appendInt(lane, to: &out)
            switch signal {
            case .opened(let label, let stage, let parent):
                out.append(contentsOf: ",\"signal\":\"opened\",\"stage\":".utf8)
                Self.appendInt(stage, to: &out)
                out.append(contentsOf: ",\"label\":".utf8)
                Self.appendJSONString(label, to: &out)
                if let parent {
                    out.append(contentsOf: ",\"parent\":".utf8)
                    Self.appendInt(parent, to: &out)
                }
            case .subscribed: out.append(contentsOf: ",\"signal\":\"subscribed\"".utf8)
            case .value(let value):
                out.append(contentsOf: ",\"signal\":\"value\",\"value\":".utf8)
                Self.appendJSON(value, to: &out)
            case .finished: out.append(contentsOf: ",\"signal\":\"finished\"".utf8)
            case .failed(let error):
                // `id` as on the `failed` event: the error's code when the language raised it.
                out.append(contentsOf: ",\"signal\":\"failed\",\"error\":".utf8)
                Self.appendJSONString(error.message, to: &out)
                if let id = error.id {
                    out.append(contentsOf: ",\"id\":".utf8)
                    Self.appendJSONString(id.code, to: &out)
                }
            case .cancelled: out.append(contentsOf: ",\"signal\":\"cancelled\"".utf8)
            case .pulled: out.append(contentsOf: ",\"signal\":\"pulled\"".utf8)
            }
        case .output(let kind, let stage, let text):
            out.append(contentsOf: "\"\(kind.rawValue)\",\"stage\":".utf8)
            Self.appendInt(stage, to: &out)
            out.append(contentsOf: ",\"text\":".utf8)
            Self.appendJSONString(text, to: &out)
        case .trace(let stage, let name, let depth, let event, let thread):
            out.append(contentsOf: "\"trace\",\"stage\":".utf8)
            Self.appendInt(stage, to: &out)
            out.append(contentsOf: ",\"name\":".utf8)
            Self.appendJSONString(name, to: &out)
            out.append(contentsOf: ",\"depth\":".utf8)
            Self.appendInt(depth, to: &out)
            out.append(contentsOf: ",\"signal\":".utf8)
            Self.appendJSONString(event, to: &out)
            out.append(contentsOf: ",\"thread\":".utf8)
            Self.appendJSONString(thread, to: &out)
        }
        if let summary {
            out.append(contentsOf: ",\"count\":".utf8)
            Self.appendInt(summary.count, to: &out)
            out.append(contentsOf: ",\"duration\":".utf8)
            out.append(contentsOf: Self.seconds(summary.duration).utf8)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// Seconds as a JSON number with microsecond precision and no trailing zeros: `0.101`, `2`.
    static func seconds(_ time: Duration) -> String {
        var bytes: [UInt8] = []
        appendSeconds(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `seconds(time)` without building a string (once per event in jsonl).
    static func appendSeconds(_ time: Duration, to out: inout [UInt8]) {
        LineWriter.append(to: &out) { $0.seconds(nanoseconds: nanoseconds(time)) }
    }

    static func appendJSON(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .int(let int): appendInt(int, to: &out)
        case .double(let double):
            if double.isFinite {
                out.append(contentsOf: "\(double)".utf8)
            } else {
                appendJSONString("\(double)", to: &out)
            }
        case .string(let string): appendJSONString(string, to: &out)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendJSON(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    static func appendJSONString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 10: out.append(contentsOf: "\\n".utf8)
            case 13: out.append(contentsOf: "\\r".utf8)
            case 9: out.append(contentsOf: "\\t".utf8)
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Writes an event line, or a piece of one, at a pointer: into a stack buffer of 192 bytes
/// (`append(to:_:)`), or in place in the output sink (`EventFormatter.writeIntValue`). The longest
/// thing written, a jsonl `value <int>` line with a 20-digit job and value, is 106 bytes.
private struct LineWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Writes into a stack buffer with `body`, then appends what it wrote to `out` in one copy.
    static func append(to out: inout [UInt8], _ body: (inout LineWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 192) { buffer in
            var line = LineWriter(buffer.baseAddress!)
            body(&line)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: line.count))
        }
    }

    /// `+S.mmms`: milliseconds, truncated so that a time never reads later than it was.
    mutating func relativeTime(nanoseconds ns: Int64) {
        byte(UInt8(ascii: "+"))
        relativeTimeDigits(nanoseconds: ns)
        byte(UInt8(ascii: "s"))
    }

    /// `S.mmm` of `relativeTime`.
    @inline(__always)
    mutating func relativeTimeDigits(nanoseconds ns: Int64) {
        let ms = UInt(Swift.max(0, ns)) / 1_000_000
        let seconds = ms / 1000
        unsigned(seconds)
        byte(UInt8(ascii: "."))
        let fraction = ms &- seconds &* 1000
        let hundreds = fraction / 100
        base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
        pair(fraction &- hundreds &* 100, at: count + 1)
        count += 3
    }

    /// Seconds with microsecond precision and no trailing zeros: `0.101`, `2`, `0.000005`.
    mutating func seconds(nanoseconds ns: Int64) {
        let us = Int(max(0, ns) / 1000)
        int(us / 1_000_000)
        var fraction = us % 1_000_000
        guard fraction != 0 else { return }
        var width = 6
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        byte(UInt8(ascii: "."))
        digits(fraction, count: width)
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// A literal: one copy of its bytes (a constant length, so the copy is a store or two).
    @inline(__always)
    mutating func bytes(_ text: StaticString) {
        UnsafeMutableRawPointer(base + count).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func int(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// The decimal digits of `value`, written from the last one back, two at a time (one division
    /// per two digits).
    @inline(__always)
    mutating func unsigned(_ value: UInt) {
        var end = count + Self.digitCount(value)
        count = end
        var v = value
        while v >= 100 {
            let q = v / 100
            end -= 2
            pair(v &- q &* 100, at: end)
            v = q
        }
        if v >= 10 {
            pair(v, at: end - 2)
        } else {
            base[end - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// How many decimal digits `value` has (1 to 20).
    @inline(__always)
    static func digitCount(_ value: UInt) -> Int {
        var n = 1
        var limit: UInt = 10
        while value >= limit {
            n += 1
            if n == 20 { break }
            limit &*= 10
        }
        return n
    }

    /// The two digits of `value` (0 to 99) at `at`.
    @inline(__always)
    private func pair(_ value: UInt, at: Int) {
        let digits = Self.pairs.utf8Start + Int(value) &* 2
        base[at] = digits[0]
        base[at + 1] = digits[1]
    }

    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `value` with exactly `count` digits, zero-padded (`7` as `007`).
    mutating func digits(_ value: Int, count width: Int) {
        var v = value
        var at = count + width - 1
        for _ in 0..<width {
            base[at] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            at -= 1
        }
        count += width
    }
}
