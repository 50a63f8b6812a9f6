import Foundation
import PlumbDiagrams
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The diagram drawn live under a foreground run's event lines on a terminal (real clock): the
/// event lines go to a deferred sink, and every redraw erases the diagram drawn last, writes the
/// lines that arrived meanwhile, and draws the diagram again, so nothing else on the screen moves.
///
/// A resized window (SIGWINCH) is re-fitted at the next redraw (at most 50 ms later): the erase
/// counts the rows the last diagram takes at the window's new width (`TerminalRows`, as a
/// terminal that rewraps lines shows them), so no stale copy stays above the new one, and the
/// event lines, which are never part of the diagram, are never erased.
///
/// A terminal that does not read (Ctrl-S) keeps a write waiting: the event lines then pile up in
/// the deferred sink, which drops past its limit and says how many, and the interrupt watcher's
/// tick does not wait for the writer, so Ctrl-C still cancels the run.
final class LiveDiagram: Sendable {
    let sink = OutputSink(fd: STDOUT_FILENO, deferred: true)
    /// The diagram on the screen now; held while writing, so writes keep their order.
    private let drawn = Mutex<[String]>([])
    private let columns: @Sendable () -> Int

    /// - Parameter columns: The window's width now (read at each redraw).
    init(columns: @escaping @Sendable () -> Int = { TerminalSize.columns }) {
        self.columns = columns
    }

    /// Writes pending lines while no diagram is on the screen yet (a synchronous source keeps the
    /// main thread busy; the interrupt watcher's tick calls this).
    func drainBeforeDrawn() {
        // Not waiting for a write in progress: the caller's thread also handles Ctrl-C.
        _ = drawn.withLockIfAvailable { drawn in
            guard drawn.isEmpty else { return }
            Self.write(sink.take())
        }
    }

    /// Replaces the diagram on the screen with `lines`, after the event lines that came meanwhile.
    func redraw(_ lines: [String]) {
        drawn.withLock { drawn in
            var bytes = erase(drawn)
            bytes += sink.take()
            for line in lines {
                bytes += Array(line.utf8)
                bytes.append(10)
            }
            Self.write(bytes)
            drawn = lines
        }
    }

    /// Takes the diagram off the screen and writes the last event lines (the final diagram is
    /// printed after them, as for any run).
    func finish() {
        drawn.withLock { drawn in
            Self.write(erase(drawn) + sink.take())
            drawn = []
        }
    }

    /// Cursor up over the drawn diagram, as many rows as it takes at the window's width now, and
    /// clear to the end of the screen.
    private func erase(_ drawn: [String]) -> [UInt8] {
        drawn.isEmpty ? [] : Array("\u{1B}[\(TerminalRows.count(drawn, columns: columns()))A\r\u{1B}[J".utf8)
    }

    /// Writes to the terminal through the sink's own writer (retries, EAGAIN, failure recording).
    private static func write(_ bytes: [UInt8]) {
        if !bytes.isEmpty { OutputSink.writeAll(fd: STDOUT_FILENO, bytes) }
    }
}
