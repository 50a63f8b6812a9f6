import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

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

/// What a run of statements came to: the counts an exit code is made from, and the first error
/// (`plumb test`'s FAIL line, `plumb learn`'s verdict). A `StatementRunner` keeps one and hands
/// it back from `finish()`; nobody else changes it.
///
/// ```swift
/// var report = RunReport()
/// report.countPipelineFailure()
/// report.exitCode   // 1
/// ```
struct RunReport: Equatable, Sendable {
    /// The first error reported: where and what.
    struct FirstError: Equatable, Sendable {
        var location: SourceLocation
        var message: String
        /// The diagnostic's id, when it is one (a shell error's line has none here).
        var id: DiagnosticID? = nil

        /// `error[E302]: message`, or the bare message without an id.
        var headline: String { id.map { "error[\($0.code)]: \(message)" } ?? message }
    }

    /// Pipelines that failed (and were not followed by an `expect failed` that held).
    private(set) var pipelineFailures = 0
    /// `expect` lines that did not hold.
    private(set) var expectationFailures = 0
    /// Texts with static errors, and commands that could not be performed in a script.
    private(set) var compileFailures = 0
    private(set) var firstError: FirstError?

    /// An `expect` line that was checked: where, what it expected, and why it failed (nil: it held).
    struct CheckedExpectation: Equatable, Sendable {
        var location: SourceLocation
        var text: String
        var failure: String?
    }

    /// Every `expect` line checked, in order (`plumb test --report`).
    private(set) var expectations: [CheckedExpectation] = []

    /// 65 for static errors, 1 for failed pipelines or expectations, else 0.
    var exitCode: Int32 {
        if compileFailures > 0 { return ExitCode.dataError }
        if pipelineFailures > 0 || expectationFailures > 0 { return ExitCode.failure }
        return ExitCode.success
    }

    mutating func countPipelineFailure() { pipelineFailures += 1 }

    /// An `expect failed` held: the failure it expected does not count against the run.
    mutating func forgivePipelineFailure() { pipelineFailures = max(0, pipelineFailures - 1) }

    mutating func countExpectationFailure() { expectationFailures += 1 }

    mutating func noteExpectation(_ checked: CheckedExpectation) { expectations.append(checked) }

    mutating func countCompileFailure() { compileFailures += 1 }

    /// Keeps the first error only.
    mutating func noteError(at location: SourceLocation, _ message: String, id: DiagnosticID? = nil) {
        if firstError == nil { firstError = FirstError(location: location, message: message, id: id) }
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

    /// Combines exit codes: a usage problem beats a static error, which beats a failure.
    static func worst(_ a: Int32, _ b: Int32) -> Int32 {
        let rank: [Int32: Int] = [success: 0, failure: 1, dataError: 2, usage: 3]
        return (rank[a] ?? 0) >= (rank[b] ?? 0) ? a : b
    }
}
