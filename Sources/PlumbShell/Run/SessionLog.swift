import Foundation
import PipeLanguage

/// What a session did, in order, for `:save`: the lines that change the session (bindings, sends,
/// jobs, `expect`s that held, the commands of a stepped run) and each foreground run with what it
/// did, which becomes `expect values` and `expect marbles` lines.
///
/// ```swift
/// var log = SessionLog()
/// log.append(line: "let s = subject")
/// log.append(run: "just 1 | sink", record, clock: .virtual)
/// log.script()   // "…let s = subject\njust 1 | sink\nexpect values [1]\nexpect marbles \"(1|)\"\n"
/// ```
struct SessionLog {
    enum Entry {
        /// A line written as it was typed.
        case line(String)
        /// A foreground run: its text (nil for a stepped run, whose `:step` line is already
        /// written) and what it did.
        case run(text: String?, record: RunRecord, clock: ClockMode, interrupted: Bool)
    }

    private(set) var entries: [Entry] = []

    mutating func append(line: String) { entries.append(.line(line)) }

    mutating func append(run text: String?, _ record: RunRecord, clock: ClockMode, interrupted: Bool = false) {
        entries.append(.run(text: text, record: record, clock: clock, interrupted: interrupted))
    }

    /// Forgets everything (`:reset`, `:clock`: what came before is gone from the session too).
    mutating func clear() { entries = [] }

    /// The session as a `.pipe` script that `plumb test` passes at once.
    func script() -> String {
        var lines = [
            "# Saved from a plumb session with :save. `plumb test` checks it: each pipeline's",
            "# `expect` lines are what its run did.",
        ]
        for entry in entries {
            switch entry {
            case .line(let text):
                lines.append(text)
            case .run(let text, let record, let clock, let interrupted):
                if interrupted {
                    // A run Ctrl-C stopped never ends by itself: running it would not either.
                    lines.append("# stopped with Ctrl-C, so not saved as a check:")
                    if let text { lines += text.split(separator: "\n").map { "#   " + $0 } }
                    continue
                }
                if let text { lines.append(text) }
                lines += Self.expectations(record, clock: clock)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `expect` lines that hold for `record`: its values (or count, when too many were kept to
    /// write), a failure's message, and on the virtual clock its marbles. Each is compiled and
    /// checked against the record before it is written; one that would not hold is left out with
    /// the reason.
    static func expectations(_ record: RunRecord, clock: ClockMode) -> [String] {
        var lines: [String] = []
        if record.valuesTruncated || record.values.count > 1_000 {
            lines.append("expect count \(record.count)")
        } else {
            lines.append("expect values " + ExpectationCheck.describe(record.values))
        }
        if case .failed(let message, _) = record.termination {
            lines.append("expect failed " + Value.string(message).description)
        }
        if clock == .real {
            lines.append("# no `expect marbles`: this ran on the real clock, whose times vary from run to run")
        } else if let marbles = marbles(record) {
            lines.append(marbles)
        } else {
            lines.append("# no `expect marbles`: the run is too long to write frame by frame")
        }
        return lines.map { $0.hasPrefix("#") || holds($0, on: record, clock: clock) ? $0 : "# left out, it would not hold: " + $0 }
    }

    /// `expect marbles "…" frame: D`, the frame the largest that divides every event's time; nil
    /// when that makes more than `maxFrames` frames.
    static func marbles(_ record: RunRecord) -> String? {
        let times = record.timeline.map(\.time)
        let frame = times.reduce(Int64(0)) { gcd($0, $1) }
        guard frame > 0 else {
            // Everything at time 0: any frame draws it as one group.
            let text = MarbleNotation.render(record.timeline, frame: defaultFrame)
            return text.count <= maxMarbleText ? "expect marbles \"\(text)\"" : nil
        }
        guard (times.last ?? 0) / frame < maxFrames else { return nil }
        let text = MarbleNotation.render(record.timeline, frame: frame)
        guard text.count <= maxMarbleText else { return nil }
        return "expect marbles \"\(text)\"" + (frame == defaultFrame ? "" : " frame: \(ForegroundRun.text(frame))")
    }

    static let maxFrames: Int64 = 200
    /// Past this many characters (long values in the frames) a marble line is not written.
    static let maxMarbleText = 300
    /// The language's frame when `expect marbles` names none (100 ms).
    static let defaultFrame: Int64 = 100_000_000

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// Whether `line` compiles to an `expect` that holds for `record`.
    private static func holds(_ line: String, on record: RunRecord, clock: ClockMode) -> Bool {
        let session = Session(runtime: Runtime(clock: .virtual))
        let compiled = session.compile(line, file: "<save>")
        guard compiled.diagnostics.isEmpty, let statement = compiled.statements.first,
            case .success(.expect(let expectation, _)) = session.execute(statement)
        else { return false }
        return ExpectationCheck.verdict(expectation, on: record, clock: clock) == .holds
    }
}
