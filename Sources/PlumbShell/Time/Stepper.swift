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
///
/// The component owns the paused run and the question it asks before replacing one; the session,
/// output and log come through the `CommandContext` of each call.
///
/// ```swift
/// let stepper = Stepper()
/// stepper.step("marble \"-a-|\"", at: location, in: context)   // paused at 0 ms
/// stepper.next(at: location, in: context)                        // 100 ms: [0] marble value "a"
/// ```
final class Stepper {
    /// The run held paused on the virtual clock, if one is.
    private(set) var stepping: SteppedRun?
    /// How the last stepped run ended (`ended at 300 ms`), once one has: a time command after it
    /// is a note, not an error.
    private var lastEnd: String?
    /// Asks the person a yes/no question (the REPL sets it); nil answers yes without asking (scripts).
    var confirm: ((String) -> Bool)?

    // MARK: Commands

    /// `:step PIPELINE`.
    func step(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard !argument.isEmpty else { return context.usage(":step PIPELINE", at: location) }
        guard context.options.clock == .virtual else { return context.commandError(.steppingNeedsVirtualClock, at: location) }
        let compiled = context.session.compile(argument, file: location.file)
        if compiled.diagnostics.contains(where: { $0.severity == .error }) {
            return context.reportArgument(compiled.diagnostics, of: "step", argument: argument, at: location)
        }
        context.reportArgument(compiled.diagnostics, of: "step", argument: argument, at: location)
        guard compiled.statements.count == 1, let statement = compiled.statements.first, statement.runsPipeline,
            !statement.runsInBackground
        else { return context.commandError(.notAPipeline(":step"), at: location) }
        if let stepping {
            if let confirm, !confirm("replace the run paused at \(stepping.elapsedText) (\(stepping.pipeline.text))? [y/n] ") {
                context.say(context.style.dim("kept the paused run"))
                return .ok
            }
            // A saved session replays it as a stop, then the new run.
            context.log(":stop")
            end(cancelling: true, in: context)
        }
        let pipeline: Pipeline
        switch context.session.execute(statement) {
        case .failure(let diagnostic):
            return context.reportArgument([diagnostic], of: "step", argument: argument, at: location)
        case .success(let action):
            guard case .run(let run) = action else { return context.commandError(.notAPipeline(":step"), at: location) }
            pipeline = run
        }
        context.output.out.move(from: context.output.backgroundOut)
        let wake = context.output.wake
        let run = SteppedRun(
            pipeline: pipeline, runtime: context.session.runtime, sink: context.output.quiet ? nil : context.output.out, formatter: context.formatter,
            style: context.style,
            trace: context.options.trace, stageLines: !context.options.trace && context.options.format == .text, onTerminal: { wake.signal() })
        stepping = run
        context.log(":step " + argument)
        // Subscribing runs time 0, where a synchronous source emits every value: under the same
        // watch as every later move, so Ctrl-C stops it there too.
        let interrupted = driving(in: context) { _ in run.start() }
        context.output.out.flush()
        if interrupted || StandardStreams.outputFailed { return afterDrive(interrupted: interrupted, in: context) }
        if run.isDone {
            context.say(context.style.dim("the run ended at once: there was nothing to step through"))
            end(cancelling: false, in: context)
            return .ok
        }
        showPause(in: context)
        guard context.options.format == .text else { return .ok }
        context.say(context.style.dim("paused: Enter steps to the next event; also :advance D, :continue, :break STAGE, :stop"))
        return .ok
    }

    /// `:next`: to the next scheduled instant.
    func next(at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard let stepping else { return noPausedRun(":next", at: location, in: context) }
        context.log(":next")
        var moved = true
        let before = stepping.watch.signals
        let interrupted = driving(in: context) { _ in moved = stepping.stepToNextInstant() }
        if !moved && !interrupted && !stepping.isDone {
            context.say(context.style.dim("nothing is scheduled: the run waits for input (a send); :continue ends it, :stop cancels it"))
            return .ok
        }
        if !interrupted && stepping.watch.signals == before && !context.output.quiet && context.options.format == .text {
            // A timer ran and no stage emitted: say whose, or the step looks like it did nothing.
            let whose = stepping.runtime.lastTimerStage.map { "a timer of \(TerminalText.escaped($0)) ran" } ?? "a timer ran"
            context.output.out.write(
                "  " + EventFormatter.relativeTime(.nanoseconds(stepping.elapsed)) + "  " + context.style.dim("│ \(whose); no stage emitted") + "\n")
        }
        return afterDrive(interrupted: interrupted, in: context)
    }

    /// `:advance D`: moves the clock by D, running what falls due, unless a break or the run's end
    /// comes first.
    func advance(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard let stepping else { return noPausedRun(":advance", at: location, in: context) }
        guard let stride = Self.duration(argument) else {
            if Self.isTooLong(argument) {
                return context.commandError(
                    ShellMessage(
                        .commandUsage,
                        ":advance \(argument): the duration is too long: the longest is \(DurationLiteral.longest); try a shorter one, such as :advance 1h"),
                    at: location)
            }
            return context.usage(":advance D (a duration: 150ms, 2s; a bare number is ms)", at: location)
        }
        context.log(":advance " + argument)
        let runtime = stepping.runtime
        let (target, overflow) = runtime.nowNanoseconds().addingReportingOverflow(stride)
        let limit = overflow ? Int64.max : target
        let interrupted = driving(in: context) { stop in
            while !stop(), let next = runtime.nextVirtualDeadline, next <= limit { runtime.stepVirtualTime() }
            if !stop() { runtime.moveVirtualTime(toNanoseconds: limit) }
        }
        return afterDrive(interrupted: interrupted, in: context)
    }

    /// `:continue`: to the end (or the next break), as a foreground run goes.
    func continueRun(at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard let stepping else { return noPausedRun(":continue", at: location, in: context) }
        context.log(":continue")
        let runtime = stepping.runtime
        let until = context.options.until
        var horizon = false
        let interrupted = driving(in: context) { stop in
            horizon = runtime.driveVirtualTime(horizonNanoseconds: until, until: stop)
            // A break stops between two batches of one instant: finish the instant.
            if !horizon { runtime.settleVirtualTime() }
        }
        if !interrupted && !stepping.isDone && !stepping.watch.hasHit {
            context.output.out.flush()
            let note =
                horizon
                ? ForegroundRun.horizonNote(stepping.pipeline.text, until: until)
                : "nothing more can happen on the virtual clock; cancelling the pipeline"
            if !context.output.quiet { writeStandardError(context.style.dim("note: \(note)") + "\n") }
            end(cancelling: true, stopNote: horizon ? note : nil, in: context)
            return .ok
        }
        return afterDrive(interrupted: interrupted, in: context)
    }

    /// `:stop`: cancels the paused run.
    func stop(at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard stepping != nil else { return noPausedRun(":stop", at: location, in: context) }
        context.log(":stop")
        end(cancelling: true, in: context)
        return .ok
    }

    /// `:break`, `:break clear`, `:break STAGE [value|finished|failed]`.
    func breakAt(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard let stepping else { return noPausedRun(":break", at: location, in: context) }
        if argument.isEmpty {
            let breakpoints = stepping.watch.breakpoints
            context.say(
                breakpoints.isEmpty
                    ? context.style.dim("no breaks: :break STAGE [value|finished|failed]") : breakpoints.map { "break at \($0)" }.joined(separator: "\n"))
            return .ok
        }
        if argument == "clear" {
            context.log(":break clear")
            stepping.watch.breakpoints = []
            context.say(context.style.dim("breaks cleared"))
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
            context.log(":break " + argument)
            context.say(context.style.dim("break at \(breakpoint)"))
            return .ok
        case .problem(let message):
            return context.commandError(message, at: location)
        }
    }

    // MARK: Driving

    /// Runs `body` with Ctrl-C watched; `body` gets the test that tells it to stop (Ctrl-C, the
    /// run's end, a break, a failed write). Returns whether Ctrl-C came.
    ///
    /// Ctrl-C also cancels the run from the watcher's thread: one instant can be long (a
    /// synchronous source emits all its values at time 0, from inside `start()` or one step),
    /// and the test is only asked between two actions.
    private func driving(in context: CommandContext, _ body: (_ stop: () -> Bool) -> Void) -> Bool {
        guard let stepping else { return false }
        let out = context.output.out
        let run = stepping.run
        let watcher = InterruptWatcher(catchingSignal: !context.output.interactive, onTick: { out.flush() }) { run.cancel() }
        body { watcher.interrupted || StandardStreams.outputFailed || stepping.isDone || stepping.watch.hasHit }
        watcher.stop()
        return watcher.interrupted
    }

    /// After a move: ends the run if it ended (or Ctrl-C came), else says which break stopped it
    /// and shows the pause.
    private func afterDrive(interrupted: Bool, in context: CommandContext) -> StepResult {
        guard let stepping else { return .ok }
        context.output.out.move(from: context.output.backgroundOut)
        context.output.out.flush()
        if interrupted || StandardStreams.outputFailed {
            end(cancelling: true, in: context)
            return interrupted ? .interrupted : .outputFailed
        }
        if stepping.isDone {
            end(cancelling: false, in: context)
            return .ok
        }
        if let hit = stepping.watch.takeHit() { context.say(context.style.yellow("break") + " " + hit) }
        showPause(in: context)
        return .ok
    }

    /// After a statement while paused (a send): runs what it started at this instant; a finish or
    /// failure sent may end the run.
    func settle(in context: CommandContext) {
        guard let stepping else { return }
        stepping.runtime.settleVirtualTime()
        _ = stepping.watch.takeHit()
        context.output.out.flush()
        if stepping.isDone { end(cancelling: false, in: context) }
    }

    /// Prints the diagram so far with the cursor under the current instant.
    func showPause(in context: CommandContext) {
        guard let stepping, !context.output.quiet, context.options.format == .text,
            let lines = stepping.diagramLines(width: TerminalSize.columns, color: context.options.color)
        else { return }
        context.say(lines.joined(separator: "\n"))
    }

    /// A time command with no paused run. After a stepped run has ended it says so and goes on:
    /// a saved session replays its `:next` and `:continue` lines after an edit that ends the run
    /// sooner (it ran; exit 65 would say nothing of it did). Before any, it is an error (E730).
    private func noPausedRun(_ command: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard let lastEnd else { return context.commandError(.noPausedRun(command), at: location) }
        if !context.output.quiet { context.say(context.style.dim("\(command): no paused run, the stepped run \(lastEnd); nothing to do")) }
        return .ok
    }

    /// Ends the paused run (cancelling it first when asked and it is still going); it becomes the
    /// last run, as a foreground run does.
    func end(cancelling: Bool, stopNote: String? = nil, in context: CommandContext) {
        guard let stepping else { return }
        if cancelling && !stepping.isDone { stepping.recorder.cancel(stepping.run, waitingOn: context.output.wake) }
        self.stepping = nil
        lastEnd = "ended at \(stepping.elapsedText)"
        context.output.out.flush()
        let record = stepping.recorder.snapshot
        context.ended(record, text: stepping.pipeline.text, stopNote: stopNote)
        context.logRun(record)
        // Every pause drew the diagram: the end does too, with `:marbles off` as well.
        if !context.options.marbles, !context.output.quiet, context.options.format == .text, let lines = context.diagramLines(record) {
            context.say(lines.joined(separator: "\n"))
        }
    }

    // MARK: Arguments

    /// The stage a `:break` names, or why none is.
    enum StageLookup: Equatable {
        case found(StageWatch.Stage)
        case problem(ShellMessage)
    }

    /// `150ms`, `2s`, `1h`; a bare whole number is milliseconds, as in the language.
    /// Whether `text` is a duration (or a bare number of ms) past the longest a clock can move.
    static func isTooLong(_ text: String) -> Bool {
        if let ms = Double(text), ms > 0, text.allSatisfy({ $0.isNumber }) { return ms * 1e6 >= 9.2e18 }
        return DurationLiteral.isTooLong(text)
    }

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
