import PipeLanguage
import Testing

@testable import PlumbShell

@Suite struct EventFormatterTests {
    func line(_ event: PipelineEvent, job: Int = 0, ms: Int = 101, summary: RunSummary? = nil, format: OutputFormat = .text) -> String {
        var bytes: [UInt8] = []
        EventFormatter(format: format, style: .plain).write(event, job: job, time: .milliseconds(ms), summary: summary, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the stack-built value line is byte for byte the general formatter's", arguments: [OutputFormat.text, .jsonl])
    func fastValueLine(_ format: OutputFormat) {
        let formatter = EventFormatter(format: format, style: .plain)
        let ints = [0, 1, -1, 7, 10, 99, 100, 123_456_789, Int.max, Int.min]
        let times: [Int64] = [0, 1, 999, 1_000, 1_000_001, 101_000_000, 2_500_000_000, 59_999_999_999, 1_000_000_000_000_000, -5]
        for int in ints {
            for ns in times {
                for job in [0, 3, 12_345] {
                    for next in [false, true] {
                        var general: [UInt8] = []
                        let event: PipelineEvent = next ? .next(.int(int)) : .value(.int(int))
                        formatter.write(event, job: job, time: .nanoseconds(ns), summary: nil, into: &general)
                        var fast: [UInt8] = [UInt8(ascii: "x")]
                        #expect(formatter.writeIntValue(int, next: next, job: job, nanoseconds: ns, into: &fast))
                        #expect(
                            String(decoding: fast.dropFirst(), as: UTF8.self) == String(decoding: general, as: UTF8.self),
                            "\(int) at \(ns) ns, job \(job)")
                    }
                }
            }
        }
        // Coloured text takes the general path.
        var bytes: [UInt8] = []
        #expect(!EventFormatter(format: .text, style: Style(enabled: true)).writeIntValue(1, next: false, job: 0, nanoseconds: 0, into: &bytes))
    }

    /// Both paths share `LineWriter`, so comparing them cannot catch a fault in it: these lines
    /// are written out by hand, extremes included.
    @Test(
        "value lines written out: Int.min, Int.max, jobs, times truncated to ms (text) or µs (jsonl), both paths",
        arguments: [
            (Int.min, Int64(0), 0, false, OutputFormat.text, "  +0.000s  value -9223372036854775808\n"),
            (Int.max, 1_000_000_000_000_000, 12_345, true, .text, "[12345] +1000000.000s  next 9223372036854775807\n"),
            (-1, 59_999_999_999, 3, false, .text, "[3] +59.999s  value -1\n"),
            (0, -5, 0, false, .text, "  +0.000s  value 0\n"),
            (100, 1_000_001, 0, true, .text, "  +0.001s  next 100\n"),
            (Int.min, 2_500_000_000, 3, false, .jsonl, #"{"job":3,"t":2.5,"event":"value","value":-9223372036854775808}"# + "\n"),
            (Int.max, 1_000_001, 0, true, .jsonl, #"{"job":0,"t":0.001,"event":"value","via":"next","value":9223372036854775807}"# + "\n"),
            (7, 999, 12_345, false, .jsonl, #"{"job":12345,"t":0,"event":"value","value":7}"# + "\n"),
            (-42, 101_000_000, 0, false, .jsonl, #"{"job":0,"t":0.101,"event":"value","value":-42}"# + "\n"),
        ])
    func valueLinesWrittenOut(_ int: Int, _ ns: Int64, _ job: Int, _ next: Bool, _ format: OutputFormat, _ expected: String) {
        let formatter = EventFormatter(format: format, style: .plain)
        var general: [UInt8] = []
        formatter.write(next ? .next(.int(int)) : .value(.int(int)), job: job, time: .nanoseconds(ns), summary: nil, into: &general)
        #expect(String(decoding: general, as: UTF8.self) == expected)
        var fast: [UInt8] = []
        #expect(formatter.writeIntValue(int, next: next, job: job, nanoseconds: ns, into: &fast))
        #expect(String(decoding: fast, as: UTF8.self) == expected)
    }

    @Test("text lines: time since subscription, event, summary aligned")
    func text() {
        #expect(line(.value(.int(1))) == "  +0.101s  value 1\n")
        #expect(line(.value(.int(-42)), job: 3, ms: 2500) == "[3] +2.500s  value -42\n")
        #expect(line(.value(.string("hi"))) == "  +0.101s  value \"hi\"\n")
        #expect(line(.subscribed, ms: 0) == "  +0.000s  subscribed\n")
        #expect(
            line(.finished, summary: RunSummary(count: 1, duration: .milliseconds(101)))
                == "  +0.101s  finished                1 value in 101 ms\n")
        #expect(
            line(.cancelled, summary: RunSummary(count: 3, duration: .milliseconds(35)))
                == "  +0.101s  cancelled               3 values in 35 ms\n")
        #expect(
            line(.failed(PipelineError(message: "boom", location: nil)), summary: RunSummary(count: 0, duration: .zero))
                == "  +0.101s  failed: boom            0 values in 0 ms\n")
    }

    @Test("durations read well at every scale")
    func durations() {
        #expect(EventFormatter.durationText(.zero) == "0 ms")
        #expect(EventFormatter.durationText(.microseconds(370)) == "0.37 ms")
        #expect(EventFormatter.durationText(.microseconds(2500)) == "2.5 ms")
        #expect(EventFormatter.durationText(.milliseconds(101)) == "101 ms")
        #expect(EventFormatter.durationText(.seconds(12)) == "12.0 s")
        #expect(EventFormatter.relativeTime(.milliseconds(61_001)) == "+61.001s")
    }

    @Test("jsonl: one object per event, strings escaped")
    func json() {
        #expect(line(.value(.int(1)), format: .jsonl) == #"{"job":0,"t":0.101,"event":"value","value":1}"# + "\n")
        #expect(
            line(.value(.array([.string("a\"b"), .null, .bool(true), .double(2.5)])), ms: 0, format: .jsonl)
                == #"{"job":0,"t":0,"event":"value","value":["a\"b",null,true,2.5]}"# + "\n")
        #expect(
            line(
                .failed(PipelineError(message: "line\nbreak", location: nil)), job: 2, ms: 1500, summary: RunSummary(count: 0, duration: .milliseconds(1500)),
                format: .jsonl)
                == #"{"job":2,"t":1.5,"event":"failed","error":"line\nbreak","count":0,"duration":1.5}"# + "\n")
    }
}

@Suite struct CompletionTests {
    let words = CompletionWords(
        sources: ["just", "interval", "from"], operators: ["map", "retry", "replaceError", "sink"],
        bindings: ["ticks"], commands: [":help", ":load", ":quit", ":jobs"], jobs: ["1", "2"])

    @Test("a :command at the start of the line")
    func commands() {
        #expect(Completer.candidates(before: "", word: ":he", words: words) == .words([":help"]))
        #expect(Completer.candidates(before: "  ", word: ":", words: words) == .words([":help", ":jobs", ":load", ":quit"]))
    }

    @Test("sources and bindings first, operators after a bar")
    func stages() {
        #expect(Completer.candidates(before: "", word: "t", words: words) == .words(["ticks"]))
        #expect(Completer.candidates(before: "", word: "i", words: words) == .words(["interval"]))
        #expect(Completer.candidates(before: "just 1 | ", word: "re", words: words) == .words(["replaceError", "retry"]))
        #expect(Completer.candidates(before: "just 1 |", word: "m", words: words) == .words(["map"]))
    }

    @Test("arguments of commands: files, clocks, jobs, help topics")
    func arguments() {
        #expect(Completer.candidates(before: ":load ", word: "Ex", words: words) == .files)
        #expect(Completer.candidates(before: ":clock ", word: "v", words: words) == .words(["virtual"]))
        #expect(Completer.candidates(before: ":cancel ", word: "", words: words) == .words(["1", "2", "all"]))
        #expect(Completer.candidates(before: ":help ", word: "ret", words: words) == .words(["retry"]))
    }

    @Test("the common prefix readline inserts")
    func prefix() {
        #expect(Completer.commonPrefix(["replaceError", "retry"]) == "re")
        #expect(Completer.commonPrefix(["map"]) == "map")
    }
}

@Suite struct SuggestionTests {
    @Test("unknown commands get the closest name")
    func suggestions() {
        #expect(Suggestions.closest(to: "hepl", among: ShellCommand.names) == "help")
        #expect(Suggestions.closest(to: "job", among: ShellCommand.names) == "jobs")
        #expect(Suggestions.closest(to: "xyzzy", among: ShellCommand.names) == nil)
        // The language's edit distance: case-insensitive, a transposition is one edit.
        #expect(Suggestions.closest(to: "HELP", among: ShellCommand.names) == "help")
        #expect(Suggestions.closest(to: "jbos", among: ShellCommand.names) == "jobs")
        #expect(Suggestions.closest(to: "retyr", among: Catalog.entries.map(\.name)) == "retry")
    }
}

@Suite struct SecondsFormattingTests {
    @Test(
        "jsonl times: seconds with microsecond precision, no trailing zeros",
        arguments: [
            (0, "0"), (1, "0.000001"), (101_000, "0.101"), (1_500_000, "1.5"), (2_000_000, "2"), (61_000_010, "61.00001"),
        ])
    func seconds(microseconds: Int, text: String) {
        var bytes: [UInt8] = []
        EventFormatter.appendSeconds(.microseconds(microseconds), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(EventFormatter.seconds(.microseconds(microseconds)) == text)
    }
}
