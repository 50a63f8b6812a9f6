import Foundation

/// Where a statement runner's output goes and how much of it there is: fixed for the runner's life.
struct ShellOutput {
    /// Event and command output.
    let out: OutputSink
    /// Background jobs' output: `out` itself, or (in the REPL) a deferred sink drained above the prompt.
    let backgroundOut: OutputSink
    /// Wakes the main thread when a pipeline ends or background output is pending.
    let wake: WakePipe
    /// True in the REPL, whose SIGINT handler stays installed. Scripts catch SIGINT only while a
    /// foreground pipeline runs; either way Ctrl-C cancels that pipeline and the result is
    /// `.interrupted`.
    let interactive: Bool
    let verbosity: Verbosity
    /// No events, command output or verdict text (`plumb test`, `plumb learn`).
    var quiet: Bool { verbosity != .normal }

    /// Prints command output (to standard output, as text even in jsonl mode: commands are for people).
    func say(_ text: String) {
        guard !quiet else { return }
        out.write(text.hasSuffix("\n") ? text : text + "\n")
        out.flush()
    }
}
