import Foundation
import PipeLanguage

/// The virtual clock's horizon: a run that only an endless timer keeps going is stopped after
/// `--until` (1 hour by default) of virtual time, and the note says which source never ends.
extension ForegroundRun {
    /// `stopped at 1h of virtual time: `interval 100ms` never ends (plumb --until D runs longer)`.
    static func horizonNote(_ pipelineText: String, until: Int64) -> String {
        let source = endlessSource(in: pipelineText).map { "`\($0)` never ends" } ?? "a timer keeps it going"
        return "stopped at \(text(until)) of virtual time: \(source) (plumb --until D runs longer)"
    }

    /// `1h`, `90m`, `30s`, `250ms`: the largest unit that divides it.
    static func text(_ ns: Int64) -> String {
        for (unit, size) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)]
        where ns % size == 0 {
            return "\(ns / size)\(unit)"
        }
        return "\(ns)ns"
    }

    /// The first `interval PERIOD` written in the pipeline, the source that never ends by itself.
    static func endlessSource(in text: String) -> String? {
        let words = text.split(whereSeparator: { " (){}|".contains($0) })
        guard let i = words.firstIndex(of: "interval"), i + 1 < words.count else { return nil }
        return "interval \(words[i + 1])"
    }
}
