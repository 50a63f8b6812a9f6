import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT (Ctrl-C) sent to `plumb` running a script: the foreground pipeline is cancelled even
/// while a synchronous source is still emitting, the script stops, and plumb ends by SIGINT.
@Suite struct InterruptTests {
    /// A synchronous source far too long to finish during a test, followed by a statement that must
    /// not run once it is interrupted.
    static let script = """
        just "before"
        from 1...100000000 | map { $0 * 2 } | sink
        just "after"

        """

    @Test(
        "SIGINT during a 100-million-value synchronous source: cancelled, the script stops, plumb ends by SIGINT",
        arguments: ["run", "stdin"])
    func interruptSynchronousSource(mode: String) throws {
        let running: RunningPlumb
        if mode == "run" {
            running = try PlumbBinary.start(["run", try PlumbBinary.script(Self.script)])
        } else {
            running = try PlumbBinary.start([], input: Self.script)
        }
        #expect(running.waitForOutput { $0.contains("value 2\n") }, "no value before the interrupt:\n\(running.stdout)")
        running.interrupt()
        let result = try running.finish(within: 10)
        #expect(result.endedBySignal && result.status == SIGINT, "\(result.description.prefix(2000))")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.last?.contains("cancelled") == true, "no cancelled line at the end:\n\(result.stdout.suffix(2000))")
        #expect(!result.stdout.contains("finished                100000000 values"))
        #expect(!result.stdout.contains("\"after\""), "the statement after the interrupted one ran")
    }

    @Test("SIGINT while a synchronous source is consumed by count (no value reaches the terminal)")
    func interruptAggregation() throws {
        let running = try PlumbBinary.start(["run", try PlumbBinary.script("from 1...100000000 | count | sink\n")])
        #expect(running.waitForOutput { $0.contains("subscribed") }, "\(running.stdout)")
        running.interrupt()
        let result = try running.finish(within: 10)
        #expect(result.endedBySignal && result.status == SIGINT, "\(result)")
        #expect(result.stdout.contains("cancelled               0 values"), "\(result)")
    }

    @Test("SIGINT during a timed pipeline: cancelled at once, background jobs cancelled too")
    func interruptInterval() throws {
        let running = try PlumbBinary.start([
            "run",
            try PlumbBinary.script(
                """
                let s = subject
                s | sink &
                interval 10ms | sink
                """),
        ])
        #expect(running.waitForOutput { $0.contains("value 3\n") }, "\(running.stdout)")
        running.interrupt()
        let result = try running.finish(within: 10)
        #expect(result.endedBySignal && result.status == SIGINT, "\(result)")
        let cancelled = result.stdout.split(separator: "\n").filter { $0.contains("cancelled") }
        #expect(cancelled.count == 2 && cancelled.contains { $0.hasPrefix("[1] ") }, "\(result)")
    }
}
