import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// `:watch FILE`: runs a script on the virtual clock now and again on every save, and prints, per
/// pipeline, its marble diagram and what changed since the previous save, in `expect marbles`'s
/// words (the previous save's run is "expected", this one "actual"), until Ctrl-C.
///
/// Each run is a fresh session (a script's bindings start empty, as under `plumb run`); its event
/// lines are not printed, its diagnostics and failed `expect`s are. The file is looked at every
/// 200 ms (its modification time, size and inode: editors that save by renaming a new file over
/// the old one count), waiting on the signal pipe in between, so Ctrl-C ends the watch at once
/// and nothing spins.
///
/// It keeps no state between commands: a watch lasts one command, and what it needs of the shell
/// (the settings, output, errors) comes through the `CommandContext`.
enum ScriptWatch {
    /// How often the file is looked at (ms).
    static let watchInterval: Int32 = 200

    /// `:watch FILE`.
    static func watch(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard !argument.isEmpty else { return context.usage(":watch FILE.pipe", at: location) }
        guard context.output.interactive else { return context.commandError(.needsTerminal(":watch"), at: location) }
        let path = (argument as NSString).expandingTildeInPath
        guard let first = Self.fileStamp(path) else {
            return context.commandError(.unreadableFile("cannot watch \(argument): no such file"), at: location)
        }
        var stamp = first
        var previous: [(text: String, record: RunRecord)]?
        var round = 0
        let interruptsAtStart = Signals.interrupts.load(ordering: .relaxed)
        while true {
            round += 1
            let runs = run(path: path, shownAs: argument, round: round, in: context)
            for (i, run) in runs.enumerated() {
                show(run, index: i, previous: previous.flatMap { i < $0.count ? $0[i] : nil }, in: context)
            }
            if let previous, previous.count > runs.count {
                context.say(
                    context.style.dim("\(previous.count - runs.count) pipeline\(previous.count - runs.count == 1 ? "" : "s") fewer than at the previous save"))
            }
            previous = runs
            context.say(context.style.dim("watching \(argument): save it to run it again; Ctrl-C stops"))
            // Wait for a save or Ctrl-C, sleeping in poll(2) on the signal pipe.
            while true {
                var fd = pollfd(fd: Signals.pipe.readFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&fd, 1, Self.watchInterval)
                if Signals.interrupts.load(ordering: .relaxed) != interruptsAtStart {
                    Signals.pipe.drain()
                    context.say(context.style.dim("stopped watching \(argument)"))
                    return .ok
                }
                if fd.revents != 0 { Signals.pipe.drain() }
                let now = Self.fileStamp(path)
                if let now, now != stamp {
                    stamp = now
                    // An editor may still be writing: let it finish.
                    usleep(50_000)
                    stamp = Self.fileStamp(path) ?? now
                    break
                }
            }
        }
    }

    /// Runs the script once in a fresh session on the virtual clock; returns its foreground runs.
    private static func run(path: String, shownAs name: String, round: Int, in context: CommandContext) -> [(text: String, record: RunRecord)] {
        let text: String
        switch ScriptFile.read(path) {
        case .success(let read): text = read
        case .failure(let failure):
            _ = context.commandError(
                .unreadableFile(ReadFailure(path: name, reason: failure.reason).message), at: SourceLocation(file: name, line: 1, column: 1))
            return []
        }
        context.say(context.style.bold("── \(name): run \(round) ──"))
        var watchOptions = context.options
        watchOptions.clock = .virtual
        watchOptions.marbles = true
        watchOptions.format = .text
        watchOptions.svg = nil
        // Event lines go nowhere: the diagrams say it all. Diagnostics and failed expects still
        // go to standard error.
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        let script = StatementRunner(options: watchOptions, out: OutputSink(fd: devNull < 0 ? STDOUT_FILENO : devNull), wake: WakePipe())
        _ = script.runScript(text, file: name, path: path)
        let runs = script.log.entries.compactMap { entry -> (text: String, record: RunRecord)? in
            guard case .run(let text, let record, _, _) = entry else { return nil }
            return (text ?? "stepped run", record)
        }
        _ = script.finish()
        return runs
    }

    /// One pipeline of a watched run: its text, its diagram, and what changed since the last save.
    private static func show(_ run: (text: String, record: RunRecord), index: Int, previous: (text: String, record: RunRecord)?, in context: CommandContext) {
        var lines = [context.style.bold("[\(index + 1)] ") + run.text]
        lines += context.diagramLines(run.record) ?? ["  " + ExpectationCheck.describe(run.record, for: .values([]))]
        if let previous {
            lines += Self.changes(from: previous.record, to: run.record, textChanged: previous.text != run.text, style: context.style)
        }
        context.say(lines.joined(separator: "\n"))
    }

    /// `unchanged since the last save`, or the `expect marbles` diff of the previous save's run
    /// (expected) against this one (actual), in frames that divide every event's time.
    static func changes(from old: RunRecord, to new: RunRecord, textChanged: Bool, style: Style) -> [String] {
        let times = (old.timeline + new.timeline).map(\.time)
        var frame = times.reduce(Int64(0)) { SessionLog.gcd($0, $1) }
        if frame == 0 { frame = SessionLog.defaultFrame }
        let before = MarbleNotation.render(old.timeline, frame: frame)
        let comparison = MarbleComparison(expected: before, events: new.timeline, frame: frame)
        let sameEnd = old.termination == new.termination
        if comparison.holds && sameEnd {
            return [style.dim(textChanged ? "the same events as at the last save" : "unchanged since the last save")]
        }
        var lines = [
            style.yellow("changed since the last save") + style.dim(" (expected: the last save, actual: this one; 1 frame = \(ForegroundRun.text(frame)))")
        ]
        if comparison.holds {
            lines.append("  ended \(ExpectationCheck.describe(new.termination)), was \(ExpectationCheck.describe(old.termination))")
        } else {
            lines += comparison.diff.map { "  " + $0 }
        }
        return lines
    }

    /// What tells a save: modification time, size, inode; nil when the file is not there.
    static func fileStamp(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size), Int(info.st_ino)]
    }
}
