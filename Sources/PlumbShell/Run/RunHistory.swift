import Foundation
import PlumbDiagrams

/// The last foreground run (which `expect` checks and `:marbles` and `:export` draw), why it was
/// stopped on the virtual clock if it was, and the runs' diagrams kept for `--svg`.
struct RunHistory {
    /// The last foreground pipeline's run and its text (the SVG's title).
    var last: (record: RunRecord, text: String)?
    /// Why the last foreground run was stopped on the virtual clock (`ForegroundRun+Horizon`), if it was.
    var stopNote: String?
    /// The foreground runs' diagrams, for `--svg`.
    var diagrams: [(text: String, run: MarbleRun)] = []
}
