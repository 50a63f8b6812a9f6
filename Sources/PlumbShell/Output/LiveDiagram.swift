import Foundation
import Reactive

#if canImport(Glibc)
import Glibc
#endif

/// The diagram drawn live under a foreground run's event lines on a terminal (real clock): the
/// event lines go to a deferred sink, and every redraw erases the diagram drawn last, writes the
/// lines that arrived meanwhile, and draws the diagram again, so nothing else on the screen moves.
final class LiveDiagram: @unchecked Sendable {
    // @unchecked: `drawnLines` is only touched under `lock`; `sink` is itself thread-safe.
    let sink = OutputSink(fd: STDOUT_FILENO, deferred: true)
    private let lock = Lock()
    private var drawnLines = 0

    /// Writes pending lines while no diagram is on the screen yet (a synchronous source keeps the
    /// main thread busy; the interrupt watcher's tick calls this).
    func drainBeforeDrawn() {
        lock.guarded {
            guard drawnLines == 0 else { return }
            Self.write(sink.take())
        }
    }

    /// Replaces the diagram on the screen with `lines`, after the event lines that came meanwhile.
    func redraw(_ lines: [String]) {
        lock.guarded {
            var bytes = erase()
            bytes += sink.take()
            for line in lines {
                bytes += Array(line.utf8)
                bytes.append(10)
            }
            Self.write(bytes)
            drawnLines = lines.count
        }
    }

    /// Takes the diagram off the screen and writes the last event lines (the final diagram is
    /// printed after them, as for any run).
    func finish() {
        lock.guarded {
            Self.write(erase() + sink.take())
            drawnLines = 0
        }
    }

    /// Cursor up over the drawn diagram and clear to the end of the screen.
    private func erase() -> [UInt8] {
        drawnLines == 0 ? [] : Array("\u{1B}[\(drawnLines)A\r\u{1B}[J".utf8)
    }

    /// Writes to the terminal through the sink's own writer (retries, EAGAIN, failure recording).
    private static func write(_ bytes: [UInt8]) {
        if !bytes.isEmpty { OutputSink.writeAll(fd: STDOUT_FILENO, bytes) }
    }
}
