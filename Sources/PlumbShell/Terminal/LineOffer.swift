import CReadline
import Synchronization

/// A fix-it's corrected line offered at the prompt without being typed (fish's autosuggestion):
/// readline draws the line, then `plumbRedisplay` draws the rest of the offer dimmed after it and
/// puts the cursor back; → (or Ctrl-F) and Tab at the end of the line take it; Enter, Ctrl-C and
/// Ctrl-D take it off the screen first, so the line that ran is what the person typed.
///
/// The offer is drawn only while the typed text is how it begins and the cursor is at its end,
/// and only within the cursor's row, so the cursor can go back by a column count and no
/// scrolling moves it. Everything here runs on the main thread, which owns readline.
enum Offer {
    struct State {
        var text: String
        /// Columns of the prompt, where the typed text begins.
        var promptWidth = 0
        /// Columns of dimmed text on the screen after the cursor now.
        var shown = 0
        /// Drawn only during a read it was made for.
        var active = false
    }

    static let state = Mutex<State?>(nil)

    /// The keys the offer takes over while it stands, and what was bound to them before.
    private static let keys = ["\u{1B}[C", "\u{1B}OC", "\u{6}", "\t", "\r", "\n"]
    // C seam: readline's key functions have no context, and only the main thread (readline's)
    // reads or writes this, between `begin` and `end`.
    nonisolated(unsafe) private static var previous: [String: KeyFunction] = [:]

    /// A readline key function (`rl_command_func_t *`).
    typealias KeyFunction = @convention(c) (Int32, Int32) -> Int32

    /// A read starts: when an offer waits, binds its keys and the redisplay. Returns whether it did.
    static func begin(promptWidth: Int) -> Bool {
        let waiting = state.withLock { state -> Bool in
            guard state != nil else { return false }
            state?.promptWidth = promptWidth
            state?.active = true
            return true
        }
        guard waiting else { return false }
        previous = [:]
        for key in keys {
            if let function = plumb_rl_function_of(key) { previous[key] = function }
            switch key {
            case "\r", "\n": rl_bind_keyseq(key, plumbOfferAccept)
            case "\t": rl_bind_keyseq(key, plumbOfferTab)
            default: rl_bind_keyseq(key, plumbOfferForward)
            }
        }
        plumb_rl_set_redisplay(plumbRedisplay)
        return true
    }

    /// The read ended: the keys get their functions back and the offer is gone.
    static func end() {
        withdraw()
        plumb_rl_set_redisplay(nil)
        for key in keys {
            let function: KeyFunction? = previous[key]
            rl_bind_keyseq(key, function)
        }
        previous = [:]
    }

    /// Takes the offer off the screen (the cursor is where it began) and forgets it.
    static func withdraw() {
        erase()
        state.withLock { $0 = nil }
    }

    /// The line was cleared from the screen (output printed above it): nothing dimmed is shown.
    static func hidden() {
        state.withLock { $0?.shown = 0 }
    }

    /// Clears the dimmed text drawn after the cursor, if any.
    static func erase() {
        let shown = state.withLock { state -> Int in
            defer { state?.shown = 0 }
            return state?.shown ?? 0
        }
        if shown > 0 { plumb_rl_write("\u{1B}[K") }
    }

    /// The typed line and the rest of the offer after it, when the offer applies now.
    static func rest() -> (line: String, rest: String)? {
        guard plumb_rl_point() == plumb_rl_end(), let buffer = plumb_rl_line_buffer() else { return nil }
        let line = String(cString: buffer)
        guard let text = state.withLock({ $0?.active == true ? $0?.text : nil }), text.utf8.count > line.utf8.count,
            text.utf8.starts(with: line.utf8)
        else { return nil }
        return (line, String(decoding: text.utf8.dropFirst(line.utf8.count), as: UTF8.self))
    }

    /// Draws the rest of the offer dimmed after the cursor, within its row, and puts the cursor back.
    static func draw() {
        guard let offer = rest(), let promptWidth = state.withLock({ $0?.promptWidth }) else { return }
        var rows: Int32 = 0
        var columns: Int32 = 0
        rl_get_screen_size(&rows, &columns)
        let width = Int(columns)
        guard width > 1 else { return }
        let column = (promptWidth + TerminalColumns.width(of: offer.line)) % width
        let room = width - column - 1
        guard room > 0 else { return }
        var visible = ""
        var used = 0
        for scalar in TerminalText.escaped(offer.rest).unicodeScalars {
            let w = TerminalColumns.width(of: scalar)
            if used + w > room { break }
            visible.unicodeScalars.append(scalar)
            used += w
        }
        guard used > 0 else { return }
        plumb_rl_write("\u{1B}[2m" + visible + "\u{1B}[0m\u{1B}[\(used)D")
        state.withLock { $0?.shown = used }
    }

    /// → or Tab at the end of the line: the rest of the offer goes into the line. False when it
    /// does not apply (the key does what it did before).
    static func take() -> Bool {
        guard let offer = rest() else { return false }
        erase()
        _ = rl_insert_text(offer.rest)
        return true
    }

    /// What `key` was bound to before the offer, called as readline would.
    static func previousFunction(_ key: String, _ count: Int32, _ code: Int32) -> Int32 {
        previous[key]?(count, code) ?? 0
    }
}

/// readline's redisplay while an offer stands: clear the last drawing, let readline draw the line,
/// draw the offer after it.
private func plumbRedisplay() {
    Offer.erase()
    rl_redisplay()
    Offer.draw()
}

/// → and Ctrl-F: take the offer at the end of the line, else move as before.
private func plumbOfferForward(_ count: Int32, _ key: Int32) -> Int32 {
    if Offer.take() { return 0 }
    return rl_forward_char(count, key)
}

/// Tab: take the offer at the end of the line, else complete as before.
private func plumbOfferTab(_ count: Int32, _ key: Int32) -> Int32 {
    if Offer.take() { return 0 }
    return Offer.previousFunction("\t", count, key)
}

/// Enter: the offer leaves the screen, and only what was typed runs.
private func plumbOfferAccept(_ count: Int32, _ key: Int32) -> Int32 {
    Offer.withdraw()
    return Offer.previousFunction(key == 10 ? "\n" : "\r", count, key)
}

/// How many columns a terminal gives a character: 0 for combining marks, 2 for East Asian wide
/// ones and emoji, else 1 (an estimate; enough to keep an offer within its row).
enum TerminalColumns {
    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark || v == 0x200D { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }
}
