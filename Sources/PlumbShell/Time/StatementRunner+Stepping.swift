import Foundation
import PipeLanguage

/// Holding time in your hand: `:step PIPELINE` starts a run paused at time 0 on the virtual clock;
/// `:next` (Enter on an empty line in the REPL) moves it to the next scheduled instant, `:advance D`
/// by a stretch, `:continue` to its end; `:break STAGE [value|finished|failed]` pauses it when a
/// stage does that; `:stop` (Ctrl-C at the paused prompt) cancels it. Each pause prints what every
/// stage did and the diagram so far, with a cursor under the current instant.
///
/// While it is paused, statements still run: a send into a subject feeds it, `:marbles`, `:type`
/// and `expect` answer; a foreground pipeline would move its clock, so it is refused.
extension StatementRunner {
    /// `150 ms` while a run is paused (the REPL's prompt says so), else nil.
    var pausedAt: String? { stepping?.elapsedText }

    // MARK: Commands

    /// `:step PIPELINE`.
    func stepCommand(_ argument: String, at location: SourceLocation) -> StepResult {
        guard !argument.isEmpty else { return usage(":step PIPELINE", at: location) }
        guard options.clock == .virtual else { return commandError(.steppingNeedsVirtualClock, at: location) }
        let compiled = session.compile(argument, file: location.file)
        report(compiled.diagnostics, source: argument, firstLine: 1)
        if compiled.diagnostics.contains(where: { $0.severity == .error }) { return compileFailed() }
        guard compiled.statements.count == 1, let statement = compiled.statements.first, statement.runsPipeline,
            !statement.runsInBackground
        else { return commandError(.notAPipeline(":step"), at: location) }
        if let stepping {
            if let confirm, !confirm("replace the run paused at \(stepping.elapsedText) (\(stepping.pipeline.text))? [y/n] ") {
                say(style.dim("kept the paused run"))
                return .ok
            }
            // A saved session replays it as a stop, then the new run.
            log.append(line: ":stop")
            endStepping(cancelling: true)
        }
        let pipeline: Pipeline
        switch session.execute(statement) {
        case .failure(let diagnostic):
            report([diagnostic], source: argument, firstLine: 1)
            return compileFailed()
        case .success(let action):
            guard case .run(let run) = action else { return commandError(.notAPipeline(":step"), at: location) }
            pipeline = run
        }
        out.move(from: backgroundOut)
        let wake = self.wake
        let run = SteppedRun(
            pipeline: pipeline, runtime: session.runtime, sink: quiet ? nil : out, formatter: formatter, style: style,
            trace: options.trace, stageLines: !options.trace && options.format == .text, onTerminal: { wake.signal() })
        stepping = run
        log.append(line: ":step " + argument)
        run.start()
        out.flush()
        if run.isDone {
            say(style.dim("the run ended at once: there was nothing to step through"))
            endStepping(cancelling: false)
            return .ok
        }
        showPause()
        guard options.format == .text else { return .ok }
        say(style.dim("paused: Enter steps to the next event; also :advance D, :continue, :break STAGE, :stop"))
        return .ok
    }

    /// `:next`: to the next scheduled instant.
    func nextCommand(at location: SourceLocation) -> StepResult {
        guard let stepping else { return commandError(.noPausedRun(":next"), at: location) }
        log.append(line: ":next")
        var moved = true
        let before = stepping.watch.signals
        let interrupted = driving { _ in moved = stepping.runtime.stepVirtualTime() != nil }
        if !moved && !interrupted && !stepping.isDone {
            say(style.dim("nothing is scheduled: the run waits for input (a send); :continue ends it, :stop cancels it"))
            return .ok
        }
        if !interrupted && stepping.watch.signals == before && !quiet && options.format == .text {
            // A timer ran and no stage emitted: say so, or the step looks like it did nothing.
            out.write("  " + EventFormatter.relativeTime(.nanoseconds(stepping.elapsed)) + "  " + style.dim("│ a timer ran; no stage emitted") + "\n")
        }
        return afterDrive(interrupted: interrupted)
    }

    /// `:advance D`: moves the clock by D, running what falls due, unless a break or the run's end
    /// comes first.
    func advanceCommand(_ argument: String, at location: SourceLocation) -> StepResult {
        guard let stepping else { return commandError(.noPausedRun(":advance"), at: location) }
        guard let stride = Self.duration(argument) else { return usage(":advance D (a duration: 150ms, 2s; a bare number is ms)", at: location) }
        log.append(line: ":advance " + argument)
        let runtime = stepping.runtime
        let (target, overflow) = runtime.nowNanoseconds().addingReportingOverflow(stride)
        let limit = overflow ? Int64.max : target
        let interrupted = driving { stop in
            while !stop(), let next = runtime.nextVirtualDeadline, next <= limit { runtime.stepVirtualTime() }
            if !stop() { runtime.moveVirtualTime(toNanoseconds: limit) }
        }
        return afterDrive(interrupted: interrupted)
    }

    /// `:continue`: to the end (or the next break), as a foreground run goes.
    func continueCommand(at location: SourceLocation) -> StepResult {
        guard let stepping else { return commandError(.noPausedRun(":continue"), at: location) }
        log.append(line: ":continue")
        let runtime = stepping.runtime
        let until = options.until
        var horizon = false
        let interrupted = driving { stop in
            horizon = runtime.driveVirtualTime(horizonNanoseconds: until, until: stop)
            // A break stops between two batches of one instant: finish the instant.
            if !horizon { runtime.settleVirtualTime() }
        }
        if !interrupted && !stepping.isDone && !stepping.watch.hasHit {
            out.flush()
            let note =
                horizon
                ? ForegroundRun.horizonNote(stepping.pipeline.text, until: until)
                : "nothing more can happen on the virtual clock; cancelling the pipeline"
            if !quiet { writeStandardError(style.dim("note: \(note)") + "\n") }
            endStepping(cancelling: true, stopNote: horizon ? note : nil)
            return .ok
        }
        return afterDrive(interrupted: interrupted)
    }

    /// `:stop`: cancels the paused run.
    func stopCommand(at location: SourceLocation) -> StepResult {
        guard stepping != nil else { return commandError(.noPausedRun(":stop"), at: location) }
        log.append(line: ":stop")
        endStepping(cancelling: true)
        return .ok
    }

    /// `:break`, `:break clear`, `:break STAGE [value|finished|failed]`.
    func breakCommand(_ argument: String, at location: SourceLocation) -> StepResult {
        guard let stepping else { return commandError(.noPausedRun(":break"), at: location) }
        if argument.isEmpty {
            let breakpoints = stepping.watch.breakpoints
            say(
                breakpoints.isEmpty
                    ? style.dim("no breaks: :break STAGE [value|finished|failed]") : breakpoints.map { "break at \($0)" }.joined(separator: "\n"))
            return .ok
        }
        if argument == "clear" {
            log.append(line: ":break clear")
            stepping.watch.breakpoints = []
            say(style.dim("breaks cleared"))
            return .ok
        }
        var words = argument.split(separator: " ").map(String.init)
        var signal: Breakpoint.Signal?
        if words.count > 1, let last = words.last.flatMap(Breakpoint.Signal.init(rawValue:)) {
            signal = last
            words.removeLast()
        }
        switch Self.stage(words.joined(separator: " "), among: stepping.watch.stages) {
        case .found(let stage):
            let breakpoint = Breakpoint(stage: stage.index, label: stage.label, signal: signal)
            if !stepping.watch.breakpoints.contains(breakpoint) { stepping.watch.breakpoints.append(breakpoint) }
            log.append(line: ":break " + argument)
            say(style.dim("break at \(breakpoint)"))
            return .ok
        case .problem(let message):
            return commandError(message, at: location)
        }
    }

    // MARK: Driving

    /// Runs `body` with Ctrl-C watched; `body` gets the test that tells it to stop (Ctrl-C, the
    /// run's end, a break, a failed write). Returns whether Ctrl-C came.
    private func driving(_ body: (_ stop: () -> Bool) -> Void) -> Bool {
        guard let stepping else { return false }
        let out = self.out
        let watcher = InterruptWatcher(catchingSignal: !interactive, onTick: { out.flush() }) {}
        body { watcher.interrupted || StandardStreams.outputFailed || stepping.isDone || stepping.watch.hasHit }
        watcher.stop()
        return watcher.interrupted
    }

    /// After a move: ends the run if it ended (or Ctrl-C came), else says which break stopped it
    /// and shows the pause.
    private func afterDrive(interrupted: Bool) -> StepResult {
        guard let stepping else { return .ok }
        out.move(from: backgroundOut)
        out.flush()
        if interrupted || StandardStreams.outputFailed {
            endStepping(cancelling: true)
            return interrupted ? .interrupted : .outputFailed
        }
        if stepping.isDone {
            endStepping(cancelling: false)
            return .ok
        }
        if let hit = stepping.watch.takeHit() { say(style.yellow("break") + " " + hit) }
        showPause()
        return .ok
    }

    /// After a statement while paused (a send): runs what it started at this instant; a finish or
    /// failure sent may end the run.
    func settleStepping() {
        guard let stepping else { return }
        stepping.runtime.settleVirtualTime()
        _ = stepping.watch.takeHit()
        out.flush()
        if stepping.isDone { endStepping(cancelling: false) }
    }

    /// Prints the diagram so far with the cursor under the current instant.
    func showPause() {
        guard let stepping, !quiet, options.format == .text,
            let lines = stepping.diagramLines(width: TerminalSize.columns, color: options.color)
        else { return }
        say(lines.joined(separator: "\n"))
    }

    /// Ends the paused run (cancelling it first when asked and it is still going); it becomes the
    /// last run, as a foreground run does.
    func endStepping(cancelling: Bool, stopNote: String? = nil) {
        guard let stepping else { return }
        if cancelling && !stepping.isDone { stepping.recorder.cancel(stepping.run, waitingOn: wake) }
        self.stepping = nil
        out.flush()
        let record = stepping.recorder.snapshot
        ended(record, text: stepping.pipeline.text, stopNote: stopNote)
        log.append(run: nil, record, clock: options.clock)
        // Every pause drew the diagram: the end does too, with `:marbles off` as well.
        if !options.marbles, !quiet, options.format == .text, let lines = diagramLines(record) {
            say(lines.joined(separator: "\n"))
        }
    }

    // MARK: Arguments

    /// The stage a `:break` names, or why none is.
    enum StageLookup: Equatable {
        case found(StageWatch.Stage)
        case problem(ShellMessage)
    }

    /// `150ms`, `2s`, `1h`; a bare whole number is milliseconds, as in the language.
    static func duration(_ text: String) -> Int64? {
        if let ms = Int64(text), ms > 0 {
            let (ns, overflow) = ms.multipliedReportingOverflow(by: 1_000_000)
            return overflow ? nil : ns
        }
        return DurationLiteral.nanoseconds(text)
    }

    /// The stage `text` names: its index (`1`, `[1]`), its whole text (`debounce 150ms`), or its
    /// operator's name when only one stage has it (`debounce`).
    static func stage(_ text: String, among stages: [StageWatch.Stage]) -> StageLookup {
        let listed = stages.map { "[\($0.index)] \($0.label)" }.joined(separator: ", ")
        let key = text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        if let index = Int(key) {
            if let stage = stages.first(where: { $0.index == index }) { return .found(stage) }
            return .problem(.noSuchStage("no stage \(index): the stages are \(listed)"))
        }
        if let stage = stages.first(where: { $0.label == text }) { return .found(stage) }
        let named = stages.filter { $0.name == text }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 {
            return .problem(
                .noSuchStage(
                    "\(named.count) stages are '\(text)': " + named.map { "[\($0.index)] \($0.label)" }.joined(separator: ", ") + "; name one by its number"))
        }
        var message = "no stage '\(text)': the stages are \(listed)"
        if let suggestion = Suggestions.closest(to: text, among: stages.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
        return .problem(.noSuchStage(message))
    }
}
