import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Bytes the signal handler writes, so that one pipe carries both signals.
enum SignalByte {
    static let interrupt: UInt8 = 3
    static let resize: UInt8 = 28
    /// SIGCONT: the shell was stopped (Ctrl-Z) and is running again (`fg`).
    static let resume: UInt8 = 18
}

/// The SIGINT/SIGWINCH/SIGCONT self-pipe shared with the C signal handler.
///
/// Readline's own signal handling is off (`rl_catch_signals = 0`); the handler only bumps a counter
/// and writes one byte, which is all that is async-signal-safe. At the prompt the main thread polls
/// the pipe and clears the line; while a foreground pipeline runs an `InterruptWatcher` reads it
/// instead and cancels the pipeline (the main thread may be busy emitting a synchronous source).
enum Signals {
    /// The pipe the handler writes to. Created before the handler is installed.
    static let pipe = WakePipe()
    /// How many SIGINTs have arrived since the process started.
    static let interrupts = Atomic<Int>(0)

    /// After a script's run was interrupted: a SIGINT at or after this instant (`monotonicNow`,
    /// ns) ends the process at once, from the handler; an earlier one (the same press) only
    /// counts. 0: never (the handler only counts).
    static let endOnInterruptAfter = Atomic<UInt64>(0)

    /// CLOCK_MONOTONIC in ns: async-signal-safe, so the handler can read it.
    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Installs the handlers for the REPL's lifetime (idempotent). Call from the main thread before
    /// reading input.
    static func install() {
        var action = handlerAction()
        sigaction(SIGINT, &action, nil)
        sigaction(SIGWINCH, &action, nil)
        sigaction(SIGCONT, &action, nil)
        // A parent may have started us with these blocked (a tmux server spawned from a thread
        // that blocks signals passes its mask on): then Ctrl-C would never arrive.
        unblock([SIGINT, SIGWINCH, SIGTSTP, SIGCONT])
    }

    /// Catches SIGINT with the handler until `restoreInterrupt` is given the returned disposition.
    /// Scripts catch it only while a foreground pipeline runs: elsewhere (reading a script from a
    /// pipe, between statements) it keeps its default action and ends the process. An ignored
    /// SIGINT stays ignored (`plumb run x &` from a non-interactive shell, `nohup`).
    static func catchInterrupt() -> sigaction {
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            return previous
        }
        var action = handlerAction()
        sigaction(SIGINT, &action, nil)
        unblock([SIGINT])
        return previous
    }

    /// Puts back the SIGINT disposition `catchInterrupt` replaced.
    static func restoreInterrupt(_ previous: sigaction) {
        var previous = previous
        sigaction(SIGINT, &previous, nil)
    }

    /// Ends the process by SIGINT, its default action, after flushing standard I/O: how a program
    /// that caught Ctrl-C to clean up tells its parent it was interrupted (a shell then stops a
    /// loop or a script that ran it, and shows status 130).
    static func endByInterrupt() -> Never {
        fflush(nil)
        signal(SIGINT, SIG_DFL)
        unblock([SIGINT])
        raise(SIGINT)
        exit(128 + SIGINT)
    }

    /// The handler, with the pipe and its descriptor made ready first: their lazy initialisation
    /// is not async-signal-safe.
    private static func handlerAction() -> sigaction {
        _ = pipe.writeFD
        _ = interrupts.load(ordering: .relaxed)
        signalWriteFD.store(pipe.writeFD, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = plumbSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        return action
    }

    private static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Ignores SIGPIPE so that a closed stdout is an error to handle, not a silent death.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// The write end of the signal pipe, readable from the handler without locks.
private let signalWriteFD = Atomic<Int32>(-1)

private func plumbSignalHandler(_ signal: Int32) {
    let savedErrno = errno
    if signal == SIGINT {
        Signals.interrupts.add(1, ordering: .relaxed)
        let deadline = Signals.endOnInterruptAfter.load(ordering: .relaxed)
        if deadline != 0 && Signals.monotonicNow() >= deadline {
            // Pending until this handler returns, then the default action ends the process.
            Glibc.signal(SIGINT, SIG_DFL)
            raise(SIGINT)
        }
    }
    var byte: UInt8
    switch signal {
    case SIGINT: byte = SignalByte.interrupt
    case SIGCONT: byte = SignalByte.resume
    default: byte = SignalByte.resize
    }
    _ = write(signalWriteFD.load(ordering: .relaxed), &byte, 1)
    errno = savedErrno
}
