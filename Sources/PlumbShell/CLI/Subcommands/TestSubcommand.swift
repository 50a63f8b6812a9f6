/// `plumb test PATH...`: run scripts and check their `expect` lines.
struct TestSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "test", summary: "run scripts and check their `expect` lines (folders: every .pipe inside)",
        usage: [
            Usage(synopsis: "plumb test PATH...", description: ["run scripts and check their `expect` lines (folders: every .pipe inside)"]),
            Usage(synopsis: "plumb test --report junit FILE.xml PATH...", shown: .commandHelp),
            Usage(synopsis: "plumb test --report tap PATH...", shown: .commandHelp),
        ],
        discussion: """
            Runs scripts (a folder means every .pipe file inside it, recursively) and checks their
            `expect` statements against the pipeline just before each one:
              expect values [1, 2]     expect finished     expect failed "message"
              expect count 3           expect time 300ms      expect marbles "-a-b-|"
              expect subscriptions NAME 1   (how many times binding NAME's source was subscribed)
              expect started 300ms          (when, after the subscription, a future's work began)
            Event output is not printed. Per file, a line `PASS path` or
            `FAIL path:line: expected …, got …`; last, `N passed, N failed`.
            The clock is virtual unless --clock real is given, so time-based exercises run instantly.
            For CI, --report junit FILE.xml also writes JUnit XML (a test case per expect line,
            grouped per file; a failure's text and marble diff in it; the expect lines after the
            first failure as skipped) and --report tap prints TAP version 13 instead of the lines.

            EXIT CODES
              0    every file passed
              1    a file failed
              2    usage error, or a path could not be read
              65   a script has syntax or static errors
              130  interrupted by Ctrl-C (SIGINT): no total is printed
            """,
        operands: .scriptsOrFolders)

    var global = GlobalOptions()
    /// Scripts, and folders of them.
    var paths: [String] = []
    /// `--report junit FILE.xml` or `--report tap`.
    var report: TestReport.Format?

    init(global: GlobalOptions = GlobalOptions(), paths: [String], report: TestReport.Format? = nil) {
        self.global = global
        self.paths = paths
        self.report = report
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.operands.isEmpty else { throw UsageError(message: "test needs a FILE or folder") }
        var report: TestReport.Format?
        if let values = arguments.values["--report"] {
            // The option's reader let only `junit FILE.xml` and `tap` through.
            report = values.count == 2 ? .junit(values[1]) : .tap
        }
        self.init(global: GlobalOptions(arguments), paths: arguments.operands, report: report)
    }

    func run() -> Int32 {
        var options = global.shellOptions()
        // Exercises are checked on the virtual clock unless --clock says otherwise.
        if global.clock == nil { options.clock = .virtual }
        return StandardStreams.exitCode(after: ScriptRunner(options: options, testReport: report).test(paths: paths))
    }
}
