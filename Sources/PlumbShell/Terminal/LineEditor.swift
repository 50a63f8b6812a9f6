import CReadline
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What one read from the line editor produced.
enum LineInput: Equatable {
    case line(String)
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-C: the typed text was dropped.
    case interrupted
}

/// GNU readline on the main thread, through its callback interface.
///
/// The shell keeps control of the wait: it `poll`s standard input, the signal self-pipe and the
/// wake pipe of background jobs, and hands readline one character at a time. That is what lets it
/// clear the line on Ctrl-C without readline's own signal handling, and print a background job's
/// events above the prompt without corrupting the text being typed (hide the line, print, redraw,
/// all on this thread). Used only when standard input is a terminal.
final class LineEditor {
    /// Completion candidates, refreshed by the REPL before each read (the C callback has no context).
    static let completionWords = Mutex(CompletionWords())

    private let historyPath: String
    /// False when the history file cannot be written (the REPL said so at start): the history
    /// then lives only as long as the session.
    private let saving: Bool
    private var lastHistoryEntry: String?
    /// A failed history write is reported once per session.
    private var historyFailureReported = false
    private var hasPrompted = false

    init(historyPath: String, saving: Bool = true) {
        self.historyPath = historyPath
        self.saving = saving
        plumb_rl_configure("plumb")
        plumb_rl_set_completion(plumbComplete)
        using_history()
        stifle_history(2000)
        _ = read_history(historyPath)
        lastHistoryEntry = plumb_history_last().map { String(cString: $0) }
    }

    /// Reads one line with `prompt`, servicing background output through `onWake` while waiting.
    /// - Parameters:
    ///   - onWake: called on the wake pipe; returns output to print above the prompt.
    func readLine(prompt: String, wake: WakePipe, onWake: () -> [UInt8]) -> LineInput {
        LineHandler.reset()
        // The window may have been resized while a pipeline ran (the signal byte was consumed then).
        // Only once readline has initialised its streams: before that it dereferences NULL.
        if hasPrompted { rl_reset_screen_size() }
        hasPrompted = true
        let offering = Offer.begin(promptWidth: Self.visibleWidth(ofPrompt: prompt))
        rl_callback_handler_install(prompt, plumbLineHandler)
        defer {
            rl_callback_handler_remove()
            if offering { Offer.end() }
        }
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: Signals.pipe.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
        ]
        var seenInterrupts = Signals.interrupts.load(ordering: .relaxed)
        while true {
            for i in fds.indices { fds[i].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno != EINTR { return .endOfInput }
            if fds[1].revents != 0 || Signals.interrupts.load(ordering: .relaxed) != seenInterrupts {
                let bytes = Signals.pipe.drain()
                if bytes.contains(SignalByte.resume) { plumb_rl_resume() }
                if bytes.contains(SignalByte.resize) { rl_resize_terminal() }
                let now = Signals.interrupts.load(ordering: .relaxed)
                if now != seenInterrupts {
                    seenInterrupts = now
                    Offer.withdraw()
                    plumb_rl_interrupt_line()
                    return .interrupted
                }
            }
            if fds[2].revents != 0 {
                wake.drain()
                let output = onWake()
                if !output.isEmpty { printAbove(output) }
                // The terminal is gone for output: nothing typed could be shown.
                if StandardStreams.outputFailed { return .endOfInput }
            }
            if fds[0].revents != 0 {
                if fds[0].revents & Int16(POLLIN) == 0 { return .endOfInput }  // hang-up
                rl_callback_read_char()
                if let input = LineHandler.take() { return input }
            }
        }
    }

    /// Prints output above the prompt line and redraws the prompt with the text being typed.
    func printAbove(_ output: [UInt8]) {
        plumb_rl_hide_line()
        Offer.hidden()
        OutputSink.writeAll(fd: STDOUT_FILENO, output)
        plumb_rl_show_line()
    }

    /// Offers `text` on the next prompt, as fish and zsh-autosuggestions do: drawn dimmed after
    /// the typed text for as long as that text is how `text` begins; → (or Ctrl-F) or Tab at the
    /// end of the line takes it into the line; Enter runs only what was typed. Nothing is put
    /// into the line by itself, so a person who types something else gets only that. For the
    /// next read only; needs a terminal that shows dim text (colour on).
    func offerNextLine(_ text: String) {
        Offer.state.withLock { $0 = Offer.State(text: text) }
    }

    /// The columns a prompt takes: without readline's `\u{1}`…`\u{2}` invisible stretches.
    static func visibleWidth(ofPrompt prompt: String) -> Int {
        var width = 0
        var invisible = false
        for scalar in prompt.unicodeScalars {
            switch scalar {
            case "\u{1}": invisible = true
            case "\u{2}": invisible = false
            default: if !invisible { width += TerminalColumns.width(of: scalar) }
            }
        }
        return width
    }

    /// True when more typed or pasted input is already waiting on standard input (the rest of a
    /// paste): then nothing may be put on the next prompt, or the next pasted line would be
    /// appended to it.
    var hasPendingInput: Bool {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLIN) != 0
    }

    /// Puts `text` in the history without running it: Up brings it back to edit or run.
    func offerInHistory(_ text: String) {
        add_history(text)
    }

    /// Adds an entry to the history (skipping blanks and repeats) and appends it to the file.
    func remember(_ entry: String) {
        let trimmed = entry.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != lastHistoryEntry else { return }
        lastHistoryEntry = trimmed
        add_history(trimmed)
        guard saving else { return }
        let failure = access(historyPath, F_OK) != 0 ? write_history(historyPath) : append_history(1, historyPath)
        // readline returns an errno; a full disk or a file made unwritable since the start is said once.
        if failure != 0, !historyFailureReported {
            historyFailureReported = true
            writeStandardError("plumb: warning: history not saved to \(historyPath): \(ScriptFile.reason(failure))\n")
        }
    }

    /// Trims the history file to the kept length.
    func close() {
        guard saving else { return }
        _ = history_truncate_file(historyPath, 2000)
    }
}

/// Where the C line handler leaves the line it received.
private enum LineHandler {
    static let state = Mutex<LineInput?>(nil)
    static func reset() { state.withLock { $0 = nil } }
    static func take() -> LineInput? { state.withLock { $0.take() } }
}

private func plumbLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    guard let line else {
        Offer.withdraw()
        LineHandler.state.withLock { $0 = .endOfInput }
        return
    }
    let text = String(cString: line)
    free(line)
    LineHandler.state.withLock { $0 = .line(text) }
    // Stop readline from printing the prompt again before the shell has run the line.
    rl_callback_handler_remove()
}
