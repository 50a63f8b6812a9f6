import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// Settings that apply to a whole `plumb` invocation.
struct ShellOptions: Sendable {
    var clock: ClockMode = .real
    var format: OutputFormat = .text
    /// Colour on standard output (a terminal, no NO_COLOR, no --no-color).
    var color = false
    /// Colour on standard error, for diagnostics.
    var colorErrors = false
    var trace = false
    /// Print a marble diagram after each foreground run (`:marbles on`; `plumb run --marbles`).
    var marbles = false
    /// Write every foreground run's diagram into this SVG at the end (`plumb run --svg OUT.svg`).
    var svg: String?
    /// How far a virtual run goes while only an endless timer keeps it going (`--until`).
    var until: Int64 = Runtime.defaultHorizonNanoseconds
}

/// What performing a statement (or a block of them) led to.
enum StepResult: Equatable {
    case ok
    /// `:quit`.
    case quit
    /// Ctrl-C stopped a foreground pipeline; the statements after it do not run (a `:load`ed
    /// script stops; `plumb run` ends by SIGINT).
    case interrupted
    /// An `expect` did not hold (the message is `expected …, got …`).
    case expectationFailed(String, SourceLocation)
    /// The text had errors and nothing ran.
    case compileErrors
    /// A write to standard output failed: the running pipeline was cancelled and plumb ends
    /// (`StandardStreams` has the reason and the exit code).
    case outputFailed
}

/// Runs statements against a session: pipelines in the foreground or as jobs, `expect`, subject
/// commands and `:`-commands. The REPL, `plumb run`, `plumb test` and stdin mode all use it.
///
/// Used from the main thread only (the session is not thread-safe); pipelines report on any
/// thread through their `RunRecorder`, which writes to a thread-safe `OutputSink`.
final class Engine {
    var session: Session
    var options: ShellOptions
    /// Event and command output.
    let out: OutputSink
    /// Background jobs' output: `out` itself, or (in the REPL) a deferred sink drained above the prompt.
    let backgroundOut: OutputSink
    /// Wakes the main thread when a pipeline ends or background output is pending.
    let wake: WakePipe
    /// True in the REPL, whose SIGINT handler stays installed. Scripts catch SIGINT only while a
    /// foreground pipeline runs; either way Ctrl-C cancels that pipeline and the result is
    /// `.interrupted`.
    let interactive: Bool
    /// `plumb test`: print no events, only the verdicts.
    let quiet: Bool

    var jobs = JobTable()
    var trace: Bool
    /// `:marbles on|off`.
    var marbles: Bool
    /// The foreground runs' diagrams, for `--svg`.
    var diagrams: [(text: String, run: MarbleRun)] = []
    /// Ended jobs' recorders, for `:marbles N` after a job ended (the latest 50).
    var finishedJobs: [Int: RunRecorder] = [:]
    /// The last foreground pipeline's text, as the SVG's title.
    var lastText: String?
    /// The last foreground pipeline's run, which `expect` checks.
    private(set) var last: RunRecord?
    /// Why the last foreground run was stopped on the virtual clock (`Engine+Horizon`), if it was.
    var stopNote: String?
    /// Pipelines that failed (and were not followed by an `expect failed` that held).
    private(set) var pipelineFailures = 0
    private(set) var expectationFailures = 0
    var compileFailures = 0
    /// The first error reported, for `plumb test`'s FAIL line.
    private(set) var firstError: (location: SourceLocation, message: String)?
    /// Keeps diagnostics to `firstError` instead of printing them (`plumb learn` shows its own).
    var silentDiagnostics = false
    /// The REPL line being run by `runLine`, whose failures may be offered fixed.
    private var lineOfferingFixes: String?
    /// The line the REPL offers after a line failed with fix-its (`takeFixOffer`).
    private var fixOffer: String?
    /// The scripts being run, outermost first: a `plumb run` file, then each `:load` inside it.
    var loading: [LoadedFile] = []

    init(options: ShellOptions, out: OutputSink, backgroundOut: OutputSink? = nil, wake: WakePipe, interactive: Bool, quiet: Bool = false) {
        self.options = options
        self.session = Session(runtime: Runtime(clock: options.clock))
        self.out = out
        self.backgroundOut = backgroundOut ?? out
        self.wake = wake
        self.interactive = interactive
        self.quiet = quiet
        self.trace = options.trace
        self.marbles = options.marbles
        installNoteHandler()
    }

    /// Notes made outside a run (a bound `future` saying it started, and later that it was
    /// fulfilled) print like background output: above the prompt in the REPL.
    private func installNoteHandler() {
        guard !quiet else { return }
        let sink = backgroundOut
        let style = self.style
        let jsonl = options.format == .jsonl
        session.runtime.onNote { text in
            if jsonl {
                var line: [UInt8] = Array("{\"event\":\"note\",\"text\":".utf8)
                EventFormatter.appendJSONString(text, to: &line)
                line.append(contentsOf: "}\n".utf8)
                sink.append { $0.append(contentsOf: line) }
            } else {
                sink.write(style.dim("note: " + text) + "\n")
            }
        }
    }

    var style: Style { Style(enabled: options.color) }
    var formatter: EventFormatter { EventFormatter(format: options.format, style: style) }

    /// The exit code so far: 65 for compile errors, 1 for failed pipelines or expectations, else 0.
    var exitCode: Int32 {
        if compileFailures > 0 { return ExitCode.dataError }
        if pipelineFailures > 0 || expectationFailures > 0 { return ExitCode.failure }
        return ExitCode.success
    }

    // MARK: Text

    /// Compiles `text` and performs its statements in order. On compile errors prints them and runs nothing.
    func run(text: String, file: String, firstLine: Int = 1) -> StepResult {
        let compiled = session.compile(text, file: file, firstLine: firstLine)
        report(compiled.diagnostics, source: text, firstLine: firstLine)
        if compiled.diagnostics.contains(where: { $0.severity == .error }) {
            compileFailures += 1
            return .compileErrors
        }
        let compiledIn = ObjectIdentifier(session)
        for statement in compiled.statements {
            var result: StepResult
            if ObjectIdentifier(session) == compiledIn {
                result = perform(statement, source: text, firstLine: firstLine)
            } else {
                // `:clock` or `:reset` replaced the session: compile what is left in the new one.
                result = run(text: statement.text, file: file, firstLine: statement.location.line)
            }
            switch result {
            case .ok: continue
            // `plumb run` reports a failed expect and goes on; `plumb test` stops at the first.
            case .expectationFailed where !quiet: continue
            default: return result
            }
        }
        return .ok
    }

    /// Runs one line typed at the REPL: a `:`-command, or statements as `run(text:file:)` runs them.
    /// When it fails with diagnostics carrying fix-its (or names a misspelt command),
    /// `takeFixOffer()` then returns the line corrected.
    func runLine(_ text: String) -> StepResult {
        lineOfferingFixes = text
        fixOffer = nil
        defer { lineOfferingFixes = nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix(":") {
            let name = String(trimmed.dropFirst().prefix { !$0.isWhitespace })
            let argument = String(trimmed.dropFirst(1 + name.count))
            return command(name, argument: argument, at: SourceLocation(file: "<input>", line: 1, column: 1))
        }
        return run(text: text, file: "<input>")
    }

    /// In the REPL, offers `line` with `:name` corrected to `:suggestion`.
    func offerCommand(_ suggestion: String, for name: String) {
        guard let line = lineOfferingFixes, let range = line.range(of: ":" + name) else { return }
        fixOffer = line.replacingCharacters(in: range, with: ":" + suggestion)
    }

    /// The corrected line to offer, once, after `runLine`.
    func takeFixOffer() -> String? {
        defer { fixOffer = nil }
        return fixOffer
    }

    /// `text` with the first fix-it of each error made, or nil when no error has one (or they change
    /// nothing). Fix-its are made from the last to the first, so earlier offsets stay valid; one that
    /// overlaps an earlier one, or starts where it does, is skipped.
    static func fixed(_ text: String, by diagnostics: [Diagnostic]) -> String? {
        let fixes = diagnostics.filter { $0.severity == .error }.compactMap(\.fixIts.first).sorted { $0.offset < $1.offset }
        var kept: [FixIt] = []
        for fix in fixes {
            if let last = kept.last, fix.offset < last.offset + last.length || fix.offset == last.offset { continue }
            kept.append(fix)
        }
        guard !kept.isEmpty else { return nil }
        let result = kept.reversed().reduce(text) { $1.applied(to: $0) }
        return result == text ? nil : result
    }

    /// Prints diagnostics to standard error, compiler-style.
    func report(_ diagnostics: [Diagnostic], source: String, firstLine: Int) {
        guard !diagnostics.isEmpty else { return }
        if let line = lineOfferingFixes, source == line, firstLine == 1, fixOffer == nil,
           diagnostics.contains(where: { $0.severity == .error }) {
            fixOffer = Self.fixed(line, by: diagnostics)
        }
        if firstError == nil, let error = diagnostics.first(where: { $0.severity == .error }) {
            firstError = (error.location, error.message)
        }
        if silentDiagnostics { return }
        out.flush()
        var text = ""
        for diagnostic in diagnostics {
            var rendered = diagnostic.rendered(source: source, color: options.colorErrors)
            if !rendered.hasSuffix("\n") { rendered += "\n" }
            text += rendered
        }
        writeStandardError(text)
    }

    // MARK: Statements

    /// Performs one compiled statement.
    func perform(_ statement: Statement, source: String, firstLine: Int) -> StepResult {
        if StandardStreams.outputFailed { return .outputFailed }
        reapJobs()
        moveBackgroundOutput()
        switch session.execute(statement) {
        case .failure(let diagnostic):
            report([diagnostic], source: source, firstLine: firstLine)
            if diagnostic.severity == .error {
                compileFailures += 1
                return .compileErrors
            }
            return .ok
        case .success(let action):
            return perform(action)
        }
    }

    func perform(_ action: Action) -> StepResult {
        switch action {
        case .run(let pipeline):
            if pipeline.isBackground {
                startJob(pipeline)
                return .ok
            }
            return runForeground(pipeline)
        case .expect(let expectation, let location):
            return check(expectation, at: location)
        case .command(let name, let argument, let location):
            return command(name, argument: argument, at: location)
        case .done:
            return .ok
        }
    }

    // MARK: Pipelines

    /// Runs a pipeline until it ends, Ctrl-C, or (virtual clock) nothing is left to run.
    ///
    /// Ctrl-C is watched, and output flushed, on another thread for the whole run
    /// (`InterruptWatcher`), because a synchronous source keeps this thread inside `start()` until
    /// it is exhausted or cancelled.
    func runForeground(_ pipeline: Pipeline) -> StepResult {
        let wake = self.wake
        let live = drawsLive ? LiveDiagram() : nil
        let recorder = RunRecorder(
            job: 0, runtime: session.runtime, formatter: formatter, sink: quiet ? nil : (live?.sink ?? out),
            onTerminal: { wake.signal() })
        let run = pipeline.makeRun(trace: trace, record: recordsLanes, onEvent: recorder.handle)
        let out = self.out
        let watcher = InterruptWatcher(catchingSignal: !interactive, onTick: {
            out.flush()
            live?.drainBeforeDrawn()
            // A synchronous source keeps the main thread inside `start()`: stop it from here.
            if StandardStreams.outputFailed {
                run.cancel()
                wake.signal()
            }
        }) {
            run.cancel()
            wake.signal()
        }
        stopNote = nil
        run.start()
        switch session.runtime.clock {
        case .virtual:
            var lastFlush = DispatchTime.now().uptimeNanoseconds
            let horizon = session.runtime.driveVirtualTime(horizonNanoseconds: options.until) {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastFlush >= OutputSink.flushInterval {
                    lastFlush = now
                    out.flush()
                }
                return recorder.isDone || watcher.interrupted || StandardStreams.outputFailed
            }
            // An endless timer past the horizon: stop, and say so (a failing `expect` says it too).
            stopNote = horizon ? Self.horizonNote(pipeline.text, until: options.until) : nil
            if let stopNote {
                out.flush()
                if !quiet { writeStandardError(style.dim("note: \(stopNote)") + "\n") }
                cancel(run, recorder)
            }
            if !recorder.isDone {
                if !watcher.interrupted && !quiet && !StandardStreams.outputFailed {
                    out.flush()
                    writeStandardError(
                        style.dim("note: nothing more can happen on the virtual clock; cancelling the pipeline") + "\n")
                }
                cancel(run, recorder)
            }
        case .real:
            while !recorder.isDone {
                waitForWake(timeoutMilliseconds: 50)
                out.flush()
                moveBackgroundOutput()
                // At most ~20 redraws a second: one per wake.
                if let live, !recorder.isDone { live.redraw(liveLines(recorder)) }
                if (watcher.interrupted || StandardStreams.outputFailed) && !recorder.isDone { cancel(run, recorder) }
            }
        }
        watcher.stop()
        live?.finish()
        out.flush()
        let record = recorder.snapshot
        last = record
        lastText = pipeline.text
        finishDiagram(record, text: pipeline.text)
        if case .failed = record.termination { pipelineFailures += 1 }
        if watcher.interrupted { return .interrupted }
        return StandardStreams.outputFailed ? .outputFailed : .ok
    }

    /// Cancels, gives the pipeline 100 ms to report `cancelled` itself, then records it as cancelled.
    private func cancel(_ run: any Cancellable, _ recorder: RunRecorder) {
        run.cancel()
        let deadline = DispatchTime.now().uptimeNanoseconds + 100_000_000
        while !recorder.isDone && DispatchTime.now().uptimeNanoseconds < deadline {
            if session.runtime.clock == .virtual {
                session.runtime.driveVirtualTime { recorder.isDone }
                if recorder.isDone { break }
            }
            waitForWake(timeoutMilliseconds: 5)
        }
        if !recorder.isDone { recorder.forceCancelled() }
    }

    /// Sleeps until the wake pipe has something (a pipeline ended, output is pending, or the
    /// interrupt watcher cancelled the run), or the timeout.
    private func waitForWake(timeoutMilliseconds: Int32) {
        var fd = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, timeoutMilliseconds)
        wake.drain()
    }

    /// While a foreground pipeline runs in the REPL, background output goes straight to the screen.
    /// Also between the statements of a `:load`ed script, so its output keeps its order.
    func moveBackgroundOutput() {
        guard backgroundOut !== out else { return }
        let bytes = backgroundOut.take()
        if !bytes.isEmpty {
            out.append { $0.append(contentsOf: bytes) }
            out.flush()
        }
    }

    /// Starts a background job and prints its number.
    func startJob(_ pipeline: Pipeline) {
        let id = jobs.makeID()
        var text = pipeline.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasSuffix("&") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        let wake = self.wake
        let recorder = RunRecorder(
            job: id, runtime: session.runtime, formatter: formatter, sink: quiet ? nil : backgroundOut,
            onTerminal: { wake.signal() })
        if !quiet && options.format == .text {
            moveBackgroundOutput()
            out.write(style.dim("[\(id)] \(text)") + "\n")
            out.flush()
        }
        let cancellable = pipeline.start(trace: trace, record: recordsLanes, onEvent: recorder.handle)
        jobs.add(Job(id: id, text: text, recorder: recorder, cancellable: cancellable))
    }

    /// Forgets jobs that have ended and counts their failures.
    func reapJobs() {
        for job in jobs.reap() {
            finishedJobs[job.id] = job.recorder
            finishedJobs[job.id - 50] = nil
            if case .failed = job.recorder.snapshot.termination { pipelineFailures += 1 }
        }
    }

    /// Cancels every background job (the end of a script, `:reset`, `:clock`).
    func cancelAllJobs() {
        for job in jobs.jobs where !job.recorder.isDone {
            cancel(job.cancellable, job.recorder)
        }
        reapJobs()
        backgroundOut.flush()
        out.flush()
    }

    /// Replaces the session (new clock or reset), cancelling jobs first.
    func replaceSession(clock: ClockMode) {
        cancelAllJobs()
        options.clock = clock
        session = Session(runtime: Runtime(clock: clock))
        installNoteHandler()
        last = nil
    }

    // MARK: Expectations

    func check(_ expectation: Expectation, at location: SourceLocation) -> StepResult {
        guard let record = last else {
            return expectationFailed("expected \(Self.describe(expectation)), got no pipeline run before it", at: location)
        }
        let holds: Bool
        switch expectation {
        case .values(let values):
            holds = !record.valuesTruncated && record.values == values
        case .finished:
            holds = record.termination == .finished
        case .failed(let message):
            if case .failed(let actual) = record.termination {
                holds = actual == message || actual.contains(message)
                if holds { pipelineFailures = max(0, pipelineFailures - 1) }
            } else {
                holds = false
            }
        case .count(let count):
            holds = record.count == count
        case .time(let expected):
            holds = Self.sameTime(record.duration, expected, clock: session.runtime.clock)
        case .subscriptions(let name, let count):
            let actual = session.subscriptionCount(of: name) ?? 0
            guard actual == count else {
                return expectationFailed(
                    "expected \(Self.describe(expectation)), got \(name)'s source subscribed \(actual) time\(actual == 1 ? "" : "s")",
                    at: location)
            }
            holds = true
        case .started(let expected):
            holds = record.futureStarts.first.map { Self.sameTime(.nanoseconds($0), expected, clock: session.runtime.clock) } ?? false
        case .marbles(let expected, let frame):
            // Values, not spellings; any number of frames; a message of bounded size.
            let comparison = MarbleComparison(expected: expected, events: record.timeline, frame: EventFormatter.nanoseconds(frame))
            guard !comparison.holds else {
                holds = true
                break
            }
            return expectationFailed(
                "expected marbles \"\(expected)\", got \"\(comparison.actual)\"\n"
                    + comparison.diff.map { "  " + $0 }.joined(separator: "\n"), at: location)
        }
        if holds {
            if interactive && !quiet {
                out.write(style.green("✓") + " " + style.dim("expect \(Self.describe(expectation))") + "\n")
                out.flush()
            }
            return .ok
        }
        return expectationFailed(
            "expected \(Self.describe(expectation)), got \(Self.describe(record, for: expectation))", at: location)
    }

    /// Exact on the virtual clock; real time is never exact: within 10% or 20 ms, whichever is larger.
    static func sameTime(_ actual: Duration, _ expected: Duration, clock: ClockMode) -> Bool {
        guard clock == .real else { return actual == expected }
        let slack = max(expected / 10, .milliseconds(20))
        return actual >= expected - slack && actual <= expected + slack
    }

    private func expectationFailed(_ message: String, at location: SourceLocation) -> StepResult {
        let message = message + (stopNote.map { "\n  note: \($0)" } ?? "")
        expectationFailures += 1
        if !quiet {
            out.flush()
            writeStandardError("\(location.file):\(location.line): " + style.red("expect failed") + ": \(message)\n")
        }
        return .expectationFailed(message, location)
    }

    static func describe(_ expectation: Expectation) -> String {
        switch expectation {
        case .values(let values): "values \(describe(values))"
        case .finished: "finished"
        case .failed(let message): "failed \"\(message)\""
        case .count(let count): "count \(count)"
        case .time(let duration): "time \(EventFormatter.durationText(duration))"
        case .marbles(let marbles, _): "marbles \"\(marbles)\""
        case .subscriptions(let name, let count): "subscriptions \(name) \(count)"
        case .started(let duration): "started \(EventFormatter.durationText(duration))"
        }
    }

    static func describe(_ values: [Value]) -> String {
        "[" + values.map(\.description).joined(separator: ", ") + "]"
    }

    static func describe(_ termination: Termination?) -> String {
        switch termination {
        case .finished: "finished"
        case .failed(let message): "failed \"\(TerminalText.escaped(message))\""
        case .cancelled: "cancelled"
        case nil: "still running"
        }
    }

    static func describe(_ record: RunRecord, for expectation: Expectation) -> String {
        switch expectation {
        case .values:
            let shown = describe(Array(record.values.prefix(20)))
            let more = record.count > 20 ? " (\(record.count) values)" : ""
            var text = "values \(record.count > 20 ? String(shown.dropLast()) + ", …]" : shown)\(more)"
            if case .failed = record.termination { text += ", then " + describe(record.termination) }
            return text
        case .finished, .failed: return describe(record.termination)
        case .count: return "count \(record.count)"
        case .time: return "time \(EventFormatter.durationText(record.duration))"
        case .marbles(_, let frame): return "marbles \"\(MarbleNotation.render(record.timeline, frame: EventFormatter.nanoseconds(frame)))\""
        case .subscriptions(let name, _): return "subscriptions \(name)"
        case .started:
            guard let first = record.futureStarts.first else {
                return "no future started during the run (an eager future starts when it is made, before anyone subscribes)"
            }
            return "started \(EventFormatter.durationText(.nanoseconds(first)))"
        }
    }
}

/// The process exit codes (also listed by `plumb --help`).
enum ExitCode {
    static let success: Int32 = 0
    /// A pipeline failed or an `expect` did not hold.
    static let failure: Int32 = 1
    /// Bad command-line usage (or an unreadable file).
    static let usage: Int32 = 2
    /// A script has syntax or static errors (sysexits' EX_DATAERR).
    static let dataError: Int32 = 65
    /// Ctrl-C (SIGINT) stopped a script; `PlumbMain.end(with:)` turns it into an end by SIGINT,
    /// which shells report as 130.
    static let interrupted: Int32 = 128 + SIGINT
    /// Standard output's reader went away (`plumb run x | head -1`): SIGPIPE's status, as a
    /// program killed by it would have, without dying by it.
    static let brokenPipe: Int32 = 128 + SIGPIPE
}
