import Foundation
import PipeLanguage

/// One `c.send VALUE` to a channel, performed: it waits until a reader takes the value, as
/// `AsyncChannel.send` does, and never hangs the shell. Made per send by the statement runner.
///
/// - At the prompt (real clock) it waits until a reader takes the value; when nobody reads the
///   channel, or the readers are slow, it says that it waits, and Ctrl-C cancels just the send
///   (the value is dropped, the channel stays open, the prompt comes back).
/// - In a script a send that no pipeline reads would wait for ever: it is an error (E411) at once.
/// - On the virtual clock time is driven until a reader takes it; when nothing more can happen
///   (or the horizon comes) first, it is E411 too.
///
/// ```swift
/// let wait = ChannelSendWait(runtime: session.runtime, output: output, style: style, until: options.until)
/// switch wait.perform(send) { case .taken: …; case .interrupted: …; case .notTaken(let d): … }
/// ```
struct ChannelSendWait {
    /// How a send came to an end.
    enum Outcome {
        /// A reader took the value.
        case taken
        /// Ctrl-C cancelled it: the value was dropped.
        case interrupted
        /// Nobody took it and nobody will (a script, the virtual clock): the error to report.
        case notTaken(Diagnostic)
    }

    let runtime: Runtime
    let output: ShellOutput
    let style: Style
    /// How far the virtual clock is driven for the send (`--until`).
    var until: Int64 = Runtime.defaultHorizonNanoseconds
    /// A run is paused (`:step`): time moves only with `:next`, so the send is settled at this
    /// instant and never drives the clock.
    var holdsTime = false
    /// How long a send read by a pipeline waits at the prompt before it says that it waits.
    static let quietWait: UInt64 = 200_000_000

    /// Performs `send`; returns when a reader took its value, Ctrl-C cancelled it, or nobody can.
    func perform(_ send: ChannelSend) -> Outcome {
        // Scripts (and the virtual clock) have no one to start a reader while the send waits.
        if !output.interactive && send.readers == 0 { return .notTaken(send.notTaken(.noReader)) }
        let wake = output.wake
        let out = output.out
        let watcher = InterruptWatcher(catchingSignal: !output.interactive, onTick: { out.flush() }) {
            send.cancel()
            wake.signal()
        }
        defer { watcher.stop() }
        send.start { wake.signal() }
        switch runtime.clock {
        case .virtual:
            var horizon = false
            if holdsTime {
                runtime.settleVirtualTime()
            } else {
                horizon = runtime.driveVirtualTime(horizonNanoseconds: until) { send.isDone || watcher.interrupted }
            }
            out.move(from: output.backgroundOut)
            out.flush()
            if send.wasTaken { return .taken }
            if send.isDone { return interrupted(send) }
            send.cancel()
            runtime.settleVirtualTime()
            if watcher.interrupted { return interrupted(send) }
            let reason: ChannelSend.NotTaken = send.readers == 0 ? .noReader : holdsTime ? .paused : horizon ? .horizon : .nothingMoreCanHappen
            return .notTaken(send.notTaken(reason))
        case .real:
            let started = DispatchTime.now().uptimeNanoseconds
            var said = false
            while !send.isDone {
                wake.wait(timeoutMilliseconds: 50)
                out.move(from: output.backgroundOut)
                out.flush()
                if send.isDone || send.wasTaken { break }
                if watcher.interrupted {
                    send.cancel()
                    continue
                }
                if !output.interactive && send.readers == 0 {
                    // Its readers ended (`c | take 1`): nobody is left to take the value.
                    send.cancel()
                    continue
                }
                let waited = DispatchTime.now().uptimeNanoseconds - started
                if !said && output.interactive && (send.readers == 0 || waited >= Self.quietWait) {
                    said = true
                    say("waiting: \(send.statementText) waits for a reader of '\(send.name)' (Ctrl-C gives the prompt back)")
                }
            }
            out.move(from: output.backgroundOut)
            out.flush()
            if send.wasTaken { return .taken }
            if watcher.interrupted { return interrupted(send) }
            return .notTaken(send.notTaken(.noReader))
        }
    }

    /// Ctrl-C cancelled the send: says what became of the value.
    private func interrupted(_ send: ChannelSend) -> Outcome {
        say("cancelled: \(send.statementText): nobody took \(send.valueText); '\(send.name)' stays open")
        return .interrupted
    }

    /// A line about the send (not an event): dimmed, on standard error, as notes are.
    private func say(_ text: String) {
        guard !output.quiet else { return }
        output.out.flush()
        writeStandardError(style.dim(text) + "\n")
    }
}
