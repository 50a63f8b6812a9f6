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
        // The runner flushes its sink as it goes: into a pipe a thread of our own drains as it
        // fills, so a long run never blocks on it. A pipe, not a file: the room's child may
        // write no file at all (`ServeWorker` sets its file size limit to 0), and compares there.
        let text = Self.capturing { out in
            let runner = StatementRunner(options: options, out: out, wake: WakePipe())
            _ = runner.run(text: script, file: file)
            _ = runner.finish()
            return runner
        }
        let runner = text.result
        events = text.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        // A subject's example sends into a job: its run is the one to draw.
        if let last = runner.diagrams.last {
            (run, title) = (last.run, last.text)
        } else {
            run = runner.jobDiagram(1)
            title = run == nil ? nil : runner.jobs.table.text(1)
        }
    }

    /// What `body` wrote to the sink it is given, and what it returned.
    private static func capturing<T>(_ body: (OutputSink) -> T) -> (output: String, result: T) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return ("", body(OutputSink(fd: -1))) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let bytes = LockedBytes()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                bytes.append(buffer[0..<n])
            }
            done.signal()
        }
        reader.name = "plumb-captured-run"
        reader.start()
        let out = OutputSink(fd: writeEnd)
        let result = body(out)
        out.flush()
        close(writeEnd)
        done.wait()
        close(readEnd)
        return (String(decoding: bytes.all, as: UTF8.self), result)
    }
}

/// Bytes one thread appends and another reads once it is done.
private final class LockedBytes: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ more: ArraySlice<UInt8>) { lock.withLock { bytes += more } }
    var all: [UInt8] { lock.withLock { bytes } }
}
