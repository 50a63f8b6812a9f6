import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// A script run as `plumb --clock virtual run` runs it, in a statement runner of its own on a
/// fresh virtual clock: the lines it printed (no colours, no diagrams) and the last foreground
/// run's recording. A catalog entry's example (`ExampleRun`) and each side of `:compare` are one.
///
/// ```swift
/// let captured = CapturedRun(script: "from [1, 2] | map { $0 * 10 }\n", file: "example")
/// captured.events   // ["  +0.000s  subscribed", "  +0.000s  value 10", …]
/// ```
struct CapturedRun {
    /// What the run printed: events, notes, verdicts.
    let events: [String]
    /// The last foreground run's recording (or job 1's, when only a job ran).
    let run: MarbleRun?
    /// The statement `run` drew, as written.
    let title: String?

    init(script: String, file: String) {
        var options = ShellOptions()
        options.clock = .virtual
        options.keepsDiagrams = true
        options.showsWarnings = false
        // The runner flushes its sink as it goes: into an unlinked temporary file, read back after.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-run-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        unlink(path)
        let out = OutputSink(fd: fd)
        let runner = StatementRunner(options: options, out: out, wake: WakePipe())
        _ = runner.run(text: script, file: file)
        _ = runner.finish()
        out.flush()
        var text = ""
        if fd >= 0 {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            try? handle.seek(toOffset: 0)
            text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        }
        events = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        // A subject's example sends into a job: its run is the one to draw.
        if let last = runner.diagrams.last {
            (run, title) = (last.run, last.text)
        } else {
            run = runner.jobDiagram(1)
            title = run == nil ? nil : runner.jobs.table.text(1)
        }
    }
}
