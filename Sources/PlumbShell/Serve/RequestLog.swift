import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `plumb serve`'s request log on standard output (the teacher's terminal), written by a thread of its own: a request
/// never waits for the terminal (or a pipe nobody reads). Past `capacity` lines waiting, lines
/// are dropped and counted, and the count is written when the writer catches up.
final class RequestLog: Sendable {
    private struct State {
        var lines: [String] = []
        var dropped = 0
        /// Lines queued and lines written (or dropped) so far, for `finish`.
        var queued = 0
        var done = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
        let thread = Thread { [self] in drain() }
        thread.name = "plumb-serve-log"
        thread.start()
    }

    /// Queues one line (without its newline); what came from outside in it (a path a client
    /// sent, a state file's name) is made safe for the terminal here, for every line.
    func add(_ line: String) {
        let line = TerminalText.escaped(line)
        let queued = state.withLock { s -> Bool in
            guard s.lines.count < capacity else {
                s.dropped += 1
                return false
            }
            s.lines.append(line)
            s.queued += 1
            return true
        }
        if queued { ready.signal() }
    }

    private func drain() {
        while true {
            ready.wait()
            let (lines, dropped) = state.withLock { s -> ([String], Int) in
                defer {
                    s.lines.removeAll(keepingCapacity: true)
                    s.dropped = 0
                }
                return (s.lines, s.dropped)
            }
            var text = lines.map { $0 + "\n" }.joined()
            if dropped > 0 { text += "(\(dropped) log lines dropped: standard output was not being read)\n" }
            if !text.isEmpty { ServeCommand.write(text) }
            state.withLock { $0.done += lines.count }
        }
    }

    /// Waits until every queued line is written, at most `seconds` (standard output may be a
    /// pipe nobody reads: the process must still end). True when all were written.
    @discardableResult
    func finish(within seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if state.withLock({ $0.done >= $0.queued }) { return true }
            usleep(10_000)
        }
        return false
    }
}
