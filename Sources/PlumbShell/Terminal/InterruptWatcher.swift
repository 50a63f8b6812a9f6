import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Watches for Ctrl-C (SIGINT) while one foreground pipeline runs, on a dispatch queue of its own,
/// and calls `onInterrupt` from there; also calls `onTick` every 50 ms.
///
/// The main thread cannot do this itself: a synchronous source (`from 1...100000000`) emits every
/// value from inside `PipelineRun.start()`, on the main thread, so nothing there reads the signal
/// pipe (or flushes output that no new event pushes out, such as `subscribed` before a long
/// `count`) until the source is exhausted. The watcher reads `Signals.pipe` from `init` until
/// `stop()` (a dispatch read source, not a signal source: that would take SIGINT's disposition away
/// from readline's prompt). Its queue is a serial one, so it gets a thread even when every thread
/// of the global pool is busy. The tick has a queue of its own: a flush to a terminal that does not
/// read (Ctrl-S) waits in `write`, and Ctrl-C must still cancel the run meanwhile. `stop()` waits until no handler can run any more, so that the pipe
/// is the prompt's again and no Ctrl-C meant for it is swallowed.
///
/// ```swift
/// let watcher = InterruptWatcher(catchingSignal: false, onTick: { out.flush() }) { run.cancel() }
/// run.start()
/// … wait for the run to end …
/// watcher.stop()
/// ```
final class InterruptWatcher {
    private let source: any DispatchSourceRead
    private let timer: any DispatchSourceTimer
    private let stopped = DispatchSemaphore(value: 0)
    private let interruptsAtStart: Int
    /// The SIGINT disposition to put back, when the watcher installed the handler itself.
    private let previousAction: sigaction?
    private var isStopped = false
    private let policy: SharedInterruptPolicy

    /// Starts watching.
    /// - Parameters:
    ///   - catchingSignal: Install the SIGINT handler for the watch and restore the previous
    ///     disposition at `stop()` (scripts; the REPL installs it once for good). A later Ctrl-C
    ///     during the same watch then ends the process at once, in case the pipeline does not stop
    ///     (`InterruptPolicy`: not one that arrives with the first).
    ///   - onTick: Called every 50 ms, on a queue of its own (it may run while `onInterrupt` does).
    ///   - onInterrupt: Called on the watcher's queue for each Ctrl-C (so it must be idempotent).
    init(catchingSignal: Bool, onTick: @escaping @Sendable () -> Void, onInterrupt: @escaping @Sendable () -> Void) {
        previousAction = catchingSignal ? Signals.catchInterrupt() : nil
        let start = Signals.interrupts.load(ordering: .relaxed)
        interruptsAtStart = start
        let queue = DispatchQueue(label: "plumb.interrupts")
        source = DispatchSource.makeReadSource(fileDescriptor: Signals.pipe.readFD, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "plumb.interrupts.tick"))
        let stopped = self.stopped
        let policy = SharedInterruptPolicy(mayEnd: catchingSignal)
        self.policy = policy
        source.setEventHandler {
            // Resize bytes go too: nothing is drawn while a pipeline runs, and the prompt
            // re-reads the window size before it draws.
            Signals.pipe.drain()
            let count = Signals.interrupts.load(ordering: .relaxed) - start
            let now = Signals.monotonicNow()
            switch policy.decide(interrupts: count, now: now) {
            case .none: return
            case .cancel: onInterrupt()
            case .end: Signals.endByInterrupt()
            }
        }
        source.setCancelHandler { stopped.signal() }
        source.resume()
        let interval = DispatchTimeInterval.nanoseconds(Int(OutputSink.flushInterval))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: onTick)
        timer.setCancelHandler { stopped.signal() }
        timer.resume()
    }

    /// True when Ctrl-C was pressed since the watch began (also if `onInterrupt` has not run yet).
    var interrupted: Bool { Signals.interrupts.load(ordering: .relaxed) != interruptsAtStart }

    /// Stops watching (idempotent): when it returns no handler is running or will run, and the
    /// previous SIGINT disposition is back, unless Ctrl-C came during the watch.
    ///
    /// After a Ctrl-C the script is ending: it still writes the cancelled run's last lines and the
    /// jobs it cancels, then ends by SIGINT (`Signals.endByInterrupt`). The handler stays until
    /// then, so that a second signal of the same press (`timeout` signals the process and then its
    /// group) only counts instead of ending plumb by the default action with those lines unwritten;
    /// a Ctrl-C after the policy's grace still ends it at once, from the handler (a write to a
    /// terminal that does not read must not keep plumb).
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        source.cancel()
        timer.cancel()
        stopped.wait()
        stopped.wait()
        guard let previousAction else { return }
        if interrupted, let endsFrom = policy.endsFrom {
            Signals.endOnInterruptAfter.store(endsFrom, ordering: .relaxed)
        } else {
            Signals.restoreInterrupt(previousAction)
        }
    }

    deinit { stop() }
}
