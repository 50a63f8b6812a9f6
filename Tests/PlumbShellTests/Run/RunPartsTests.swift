import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

#if canImport(Glibc)
import Glibc
#endif

/// Output written to a temporary file, read back after the run (the shell's parts write to a
/// descriptor, never to a Swift stream).
final class CapturedOutput {
    let path: String
    let fd: Int32
    let sink: OutputSink

    init() {
        var template = Array((NSTemporaryDirectory() + "/plumb-out-XXXXXX").utf8CString)
        fd = mkstemp(&template)
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        sink = OutputSink(fd: fd)
    }

    var text: String {
        sink.flush()
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

/// A runner on the virtual clock writing into `output`, as `plumb run` would (no terminal).
private func makeRunner(_ output: CapturedOutput, verbosity: Verbosity = .normal) -> StatementRunner {
    StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: verbosity)
}

private func record(values: [Value], termination: Termination? = .finished, durationMS: Int = 0) -> RunRecord {
    var record = RunRecord()
    record.values = values
    record.count = values.count
    record.termination = termination
    record.duration = .milliseconds(durationMS)
    return record
}

@Suite struct RunReportTests {
    @Test("the exit code: static errors beat failures, and an expected failure is forgiven")
    func exitCode() {
        var report = RunReport()
        #expect(report.exitCode == ExitCode.success)
        report.countPipelineFailure()
        #expect(report.exitCode == ExitCode.failure)
        report.forgivePipelineFailure()
        report.forgivePipelineFailure()
        #expect(report.exitCode == ExitCode.success)
        report.countExpectationFailure()
        report.countCompileFailure()
        #expect(report.exitCode == ExitCode.dataError)
    }

    @Test("the first error is kept, later ones are not")
    func firstError() {
        var report = RunReport()
        let first = SourceLocation(file: "a.pipe", line: 2, column: 3)
        report.noteError(at: first, "one")
        report.noteError(at: SourceLocation(file: "a.pipe", line: 5, column: 1), "two")
        #expect(report.firstError == RunReport.FirstError(location: first, message: "one"))
    }

    @Test("exit codes combine: usage beats static errors, which beat failures")
    func worst() {
        #expect(ExitCode.worst(ExitCode.failure, ExitCode.dataError) == ExitCode.dataError)
        #expect(ExitCode.worst(ExitCode.usage, ExitCode.dataError) == ExitCode.usage)
        #expect(ExitCode.worst(ExitCode.success, ExitCode.failure) == ExitCode.failure)
    }
}

@Suite struct ExpectationCheckTests {
    @Test("values hold when equal and fail with both sides named")
    func values() {
        let run = record(values: [.int(1), .int(2)])
        #expect(ExpectationCheck.verdict(.values([.int(1), .int(2)]), on: run, clock: .virtual) == .holds)
        #expect(
            ExpectationCheck.verdict(.values([.int(1)]), on: run, clock: .virtual)
                == .fails("expected values [1], got values [1, 2]"))
    }

    @Test("an expect before any run fails and says so")
    func noRun() {
        #expect(
            ExpectationCheck.verdict(.finished, on: nil, clock: .virtual)
                == .fails("expected finished, got no pipeline run before it"))
    }

    @Test("time is exact on the virtual clock and allows 10% or 20 ms on the real one")
    func time() {
        let run = record(values: [], durationMS: 105)
        #expect(ExpectationCheck.verdict(.time(.milliseconds(100)), on: run, clock: .virtual) != .holds)
        #expect(ExpectationCheck.verdict(.time(.milliseconds(100)), on: run, clock: .real) == .holds)
    }

    @Test("failed matches a part of the failure's message")
    func failed() {
        let run = record(values: [], termination: .failed("flaky: attempt 1 failed"))
        #expect(ExpectationCheck.verdict(.failed("attempt 1"), on: run, clock: .virtual) == .holds)
        #expect(
            ExpectationCheck.verdict(.finished, on: run, clock: .virtual)
                == .fails("expected finished, got failed \"flaky: attempt 1 failed\""))
    }
}

@Suite struct JobTableTests {
    private func job(_ table: inout JobTable, done: Bool) -> Job {
        let runtime = Runtime(clock: .virtual)
        let recorder = RunRecorder(
            job: 0, runtime: runtime, formatter: EventFormatter(format: .text, style: Style(enabled: false)), sink: nil,
            onTerminal: {})
        if done { recorder.handle(.finished) }
        return Job(id: table.makeID(), text: "just 1", recorder: recorder, cancellable: AnyCancellable {})
    }

    @Test("ended jobs are reaped once, and their recordings stay for :marbles N")
    func reapKeepsRecordings() {
        var table = JobTable()
        let running = job(&table, done: false)
        let ended = job(&table, done: true)
        table.add(running)
        table.add(ended)
        #expect(table.reap().map(\.id) == [ended.id])
        #expect(table.reap().isEmpty)
        #expect(table.jobs.map(\.id) == [running.id])
        #expect(table.job(ended.id) == nil)
        #expect(table.recorder(ended.id) === ended.recorder)
        #expect(table.recorder(running.id) === running.recorder)
    }

    @Test("numbers are never reused, and only the latest ended jobs' recordings are kept")
    func latestKept() {
        var table = JobTable()
        var ids: [Int] = []
        for _ in 0..<(JobTable.keptFinished + 5) {
            let ended = job(&table, done: true)
            ids.append(ended.id)
            table.add(ended)
            table.reap()
        }
        #expect(Set(ids).count == ids.count)
        #expect(table.recorder(ids[0]) == nil)
        #expect(table.recorder(ids[ids.count - 1]) != nil)
    }
}

@Suite struct ForegroundRunTests {
    @Test("a foreground run on the virtual clock returns what the pipeline did")
    func runs() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile("from [1, 2, 3] | map { $0 * 2 }", file: "<test>")
        #expect(diagnostics.isEmpty)
        guard case .success(.run(let pipeline)) = session.execute(try #require(statements.first)) else {
            Issue.record("not a run")
            return
        }
        let output = CapturedOutput()
        var run = ForegroundRun(runtime: session.runtime, out: output.sink, wake: WakePipe())
        run.catchingSignal = false
        let (record, outcome, _) = run.perform(pipeline)
        #expect(outcome == .ended)
        #expect(record.values == [.int(2), .int(4), .int(6)])
        #expect(record.termination == .finished)
        #expect(output.text.contains("value 6"))
    }

    @Test("a run the virtual clock cannot end is cancelled, with the note")
    func stuck() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("let s = subject\ns | sink", file: "<test>")
        _ = session.execute(statements[0])
        guard case .success(.run(let pipeline)) = session.execute(statements[1]) else {
            Issue.record("not a run")
            return
        }
        let output = CapturedOutput()
        var run = ForegroundRun(runtime: session.runtime, out: output.sink, wake: WakePipe())
        run.catchingSignal = false
        run.printsEvents = false
        var notes: [String] = []
        run.onNote = { notes.append($0) }
        let (record, outcome, stopNote) = run.perform(pipeline)
        #expect(outcome == .ended)
        #expect(record.termination == .cancelled)
        #expect(notes == ["nothing more can happen on the virtual clock; cancelling the pipeline"])
        #expect(stopNote == nil)
        #expect(output.text.isEmpty)
    }
}

extension ForegroundRunTests {
    @Test("an endless timer stops at the horizon, and the note names it")
    func horizon() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("interval 100ms", file: "<test>")
        guard case .success(.run(let pipeline)) = session.execute(try #require(statements.first)) else {
            Issue.record("not a run")
            return
        }
        let output = CapturedOutput()
        var run = ForegroundRun(runtime: session.runtime, out: output.sink, wake: WakePipe())
        run.catchingSignal = false
        run.printsEvents = false
        run.until = 1_000_000_000
        let (record, _, stopNote) = run.perform(pipeline)
        #expect(record.termination == .cancelled)
        #expect(stopNote == "stopped at 1s of virtual time: `interval 100ms` never ends (plumb --until D runs longer)")
    }
}

@Suite struct StatementRunnerTests {
    @Test("a run's report comes back from finish: a failed expect is exit code 1")
    func report() {
        let output = CapturedOutput()
        let runner = makeRunner(output, verbosity: .quiet)
        let result = runner.run(text: "just 1 | sink\nexpect values [2]", file: "t.pipe")
        #expect(result == .expectationFailed("expected values [2], got values [1]", SourceLocation(file: "t.pipe", line: 2, column: 1)))
        let report = runner.finish()
        #expect(report.exitCode == ExitCode.failure)
        #expect(output.text.isEmpty)
    }

    @Test("static errors run nothing, count once and keep the first error")
    func staticErrors() {
        let output = CapturedOutput()
        let runner = makeRunner(output, verbosity: .silent)
        #expect(runner.run(text: "just 1 | sink\njust 1 | retyr 3", file: "t.pipe") == .compileErrors)
        let report = runner.finish()
        #expect(report.exitCode == ExitCode.dataError)
        #expect(report.firstError?.location.line == 2)
        #expect(report.firstError?.message.contains("retyr") == true)
        #expect(output.text.isEmpty)
    }

    @Test(":trace, :marbles and :clock change the one copy of the options, and :clock the session's clock")
    func oneSourceOfTruth() {
        let output = CapturedOutput()
        let runner = makeRunner(output)
        #expect(runner.run(text: ":trace on\n:marbles on", file: "t.pipe") == .ok)
        #expect(runner.options.trace)
        #expect(runner.options.marbles)
        #expect(runner.run(text: ":clock real", file: "t.pipe") == .ok)
        #expect(runner.options.clock == .real)
        #expect(runner.session.runtime.clock == .real)
        #expect(output.text.contains("trace is on"))
    }

    @Test("bindings made before :reset are gone after it, in the same text")
    func resetInText() {
        let output = CapturedOutput()
        let runner = makeRunner(output, verbosity: .quiet)
        #expect(runner.run(text: "let a = just 1\n:reset\nlet b = just 2", file: "t.pipe") == .ok)
        #expect(runner.session.bindingNames == ["b"])
    }

    @Test("a background job's failure counts when it is reaped")
    func jobFailureCounts() {
        let output = CapturedOutput()
        let runner = makeRunner(output, verbosity: .quiet)
        #expect(runner.run(text: "fail \"boom\" &", file: "t.pipe") == .ok)
        #expect(runner.finish().exitCode == ExitCode.failure)
    }
}
