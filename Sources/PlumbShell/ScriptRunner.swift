import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// `plumb run`, `plumb check`, `plumb test` and statements piped into `plumb`.
struct ScriptRunner {
    var options: ShellOptions
    /// `plumb test --report`: JUnit XML to a file, or TAP to standard output instead of the
    /// PASS/FAIL lines.
    var testReport: TestReport.Format? = nil

    private func makeRunner(_ verbosity: Verbosity = .normal) -> StatementRunner {
        StatementRunner(options: options, out: OutputSink(fd: STDOUT_FILENO), wake: WakePipe(), verbosity: verbosity)
    }

    /// Reads a script, or reports why not (`ScriptFile`). `-` is standard input.
    private func read(_ path: String) -> String? {
        switch ScriptFile.read(path) {
        case .success(let text): return text
        case .failure(let failure):
            writeStandardError(.unreadableFile(failure.message))
            return nil
        }
    }

    // MARK: run

    func run(files: [String]) -> Int32 {
        var (code, diagrams) = runFiles(files)
        if let svg = options.svg, code != ExitCode.interrupted {
            if diagrams.isEmpty {
                writeStandardError("plumb: note: no foreground pipeline ran: \(svg) not written\n")
            } else if let problem = StatementRunner.writeSVG(diagrams.map(\.run), titles: diagrams.map(\.text), to: svg) {
                writeStandardError(.cannotWriteFile(problem))
                code = ExitCode.worst(code, ExitCode.usage)
            }
        }
        return code
    }

    /// Runs each file; returns the exit code and the foreground runs' diagrams (for `--svg`).
    private func runFiles(_ files: [String]) -> (Int32, [(text: String, run: MarbleRun)]) {
        var code = ExitCode.success
        var diagrams: [(text: String, run: MarbleRun)] = []
        for file in files {
            guard let text = read(file) else {
                code = ExitCode.worst(code, ExitCode.usage)
                continue
            }
            let runner = makeRunner()
            let result = runner.runScript(text, file: file == "-" ? "<stdin>" : file, path: file == "-" ? "/dev/stdin" : file)
            let report = runner.finish()
            diagrams += runner.diagrams
            if result == .interrupted { return (ExitCode.interrupted, diagrams) }
            code = ExitCode.worst(code, report.exitCode)
            if result == .quit || result == .outputFailed { break }
        }
        return (code, diagrams)
    }

    /// `plumb swift [--program] FILE`: the script's pipelines as Swift Combine code (each pipeline
    /// statement, in order), or as one complete main.swift that compiles against Reactive.
    func swift(file: String, program: Bool) -> Int32 {
        guard let text = read(file) else { return ExitCode.usage }
        let session = Session(runtime: Runtime(clock: options.clock))
        // A `:load` runs another script: its pipelines are not in this text, so the Swift would
        // compute something else than `plumb run`. Refuse it, by line.
        let loads = ScriptLines(text).hostLines.filter { $0.name == "load" }.map { line -> String in
            let location = SourceLocation(file: file, line: line.line, column: line.column)
            let message = ShellMessage.cannotTranslateLoad(line.argument, file: file)
            return "\(location): error[\(message.id.code)]: \(message.text)"
        }
        if !loads.isEmpty {
            for line in loads { writeStandardError(line + "\n") }
            writeStandardError((DiagnosticID.explanationHint(for: [ShellCode.cannotTranslateLoad.id], interactive: false) ?? "") + "\n")
            return ExitCode.dataError
        }
        let result = session.swiftProgram(of: text, file: file)
        switch result {
        case .failure(let errors):
            for d in errors.diagnostics { writeStandardError(d.rendered(source: text, color: options.colorErrors) + "\n") }
            if let hint = DiagnosticID.explanationHint(for: errors.diagnostics.map(\.id), interactive: false) { writeStandardError(hint + "\n") }
            return ExitCode.dataError
        case .success(let code):
            if program {
                _ = StandardStreams.write(code.hasSuffix("\n") ? code : code + "\n")
                return ExitCode.success
            }
            // Without --program: each pipeline statement's code, one after the other.
            var out = ""
            let (statements, _) = session.compile(ScriptLines(text).language, file: file)
            for statement in statements where !statement.isExpectation {
                switch session.swiftTranslation(of: statement.text) {
                case .success(let swift): out += "// \(statement.location.line): \(statement.text)\n" + SessionText.swiftCode(swift) + "\n\n"
                case .failure(let d) where d.id.name.hasPrefix("type-needs"): break  // a send, finish or fail
                case .failure(let d): out += "// \(statement.location.line): \(statement.text)\n// (not translated: \(d.message))\n\n"
                }
                _ = session.execute(statement)
            }
            _ = StandardStreams.write(out)
            return ExitCode.success
        }
    }

    /// Statements from a standard input that is not a terminal: run each as soon as it is complete.
    ///
    /// A line that is not UTF-8 is reported with its position and skipped (like any bad line, the
    /// later ones still run); a stream that cannot be read (a directory, a closed descriptor) is a
    /// usage error, exit 2.
    func runStandardInputStream() -> Int32 {
        let runner = makeRunner()
        var reader = LineReader(fd: STDIN_FILENO, stopFD: StandardStreams.failureWake.readFD)
        var pending = ""
        var firstLine = 1
        var lineNumber = 0
        var readFailed = false
        reading: while let next = reader.next() {
            lineNumber += 1
            let line: String
            switch next {
            case .text(let text): line = text
            case .invalid(let reason):
                runner.reportLineError(.invalidInputLine(reason), at: SourceLocation(file: "<stdin>", line: lineNumber, column: 1))
                continue reading
            case .failed(let code):
                writeStandardError(.unreadableInput(ScriptFile.reason(code)))
                readFailed = true
                break reading
            }
            if pending.isEmpty { firstLine = lineNumber }
            pending += pending.isEmpty ? line : "\n" + line
            if Session.needsContinuation(pending) { continue }
            let text = pending
            pending = ""
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let result = runner.run(text: text, file: "<stdin>", firstLine: firstLine)
            if result == .quit || result == .outputFailed { break }
            if result == .interrupted {
                _ = runner.finish()
                return ExitCode.interrupted
            }
        }
        var result = StepResult.ok
        if !pending.isEmpty && !readFailed && !StandardStreams.outputFailed {
            result = runner.run(text: pending, file: "<stdin>", firstLine: firstLine)
        }
        let report = runner.finish()
        if result == .interrupted { return ExitCode.interrupted }
        return readFailed ? ExitCode.worst(report.exitCode, ExitCode.usage) : report.exitCode
    }

    // MARK: check

    func check(files: [String]) -> Int32 {
        var code = ExitCode.success
        for file in files {
            guard let text = read(file) else {
                code = ExitCode.worst(code, ExitCode.usage)
                continue
            }
            if let count = makeRunner().check(text: text, file: file) {
                StandardStreams.write("ok \(file) (\(count) statement\(count == 1 ? "" : "s"))\n")
            } else {
                code = ExitCode.worst(code, ExitCode.dataError)
            }
        }
        return code
    }

    // MARK: test

    /// Every `.pipe` file under the paths, folders searched recursively, in a stable order.
    static func scripts(in paths: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (FileManager.default.subpaths(atPath: path) ?? [])
                .filter { $0.hasSuffix(".pipe") }
                .sorted()
                .map { base + "/" + $0 }
            files.append(contentsOf: found)
        }
        return (files, missing)
    }

    /// How one file's test went.
    private enum TestOutcome { case passed, failed(Int32), interrupted, outputFailed }

    /// Whether PASS/FAIL lines and the summary are printed (not when TAP takes standard output).
    private var printsVerdicts: Bool { testReport != .tap }

    func test(paths: [String]) -> Int32 {
        let (found, missing) = Self.scripts(in: paths)
        for path in missing {
            writeStandardError(.noScripts("cannot read \(path): no such file or folder"))
        }
        if !missing.isEmpty { return ExitCode.usage }
        if found.isEmpty {
            writeStandardError(.noScripts("no .pipe files in \(paths.joined(separator: " "))"))
            return ExitCode.usage
        }
        // The child for one file (see `ChildCheck`): its line only, its exit code says the rest.
        if let only = ChildCheck.file {
            let (outcome, fileReport) = testFile(only)
            if let path = ProcessInfo.processInfo.environment[TestReport.variable], let data = try? JSONEncoder().encode(fileReport) {
                try? data.write(to: URL(fileURLWithPath: path))
            }
            switch outcome {
            case .passed: return ExitCode.success
            case .failed(let code): return code
            case .interrupted: return ExitCode.interrupted
            case .outputFailed: return ExitCode.success
            }
        }
        var passed = 0
        var failed = 0
        var code = ExitCode.success
        var reports: [TestReport.File] = []
        for file in found {
            // With more than one file, each runs in a child: a crash costs that file alone.
            let (outcome, fileReport) = found.count == 1 ? testFile(file) : testInChild(file)
            reports.append(fileReport)
            switch outcome {
            case .passed: passed += 1
            case .failed(let c):
                failed += 1
                code = ExitCode.worst(code, c)
            case .interrupted: return ExitCode.interrupted
            case .outputFailed: return code
            }
        }
        if printsVerdicts { StandardStreams.write("\(passed) passed, \(failed) failed\n") }
        switch testReport {
        case .junit(let path):
            do {
                try Data(TestReport.junit(reports).utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                writeStandardError(.cannotWriteFile("cannot write \(path): \(error.localizedDescription)"))
                code = ExitCode.worst(code, ExitCode.usage)
            }
        case .tap: StandardStreams.write(TestReport.tap(reports))
        case nil: break
        }
        return code
    }

    /// Runs `file` in a child `plumb` and passes its line on; a child that crashed is a FAIL
    /// that says so.
    private func testInChild(_ file: String) -> (TestOutcome, TestReport.File) {
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-report-\(getpid())-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: reportPath) }
        let (ending, output) = ChildCheck.run(
            file: file, arguments: Array(CommandLine.arguments.dropFirst()), environment: testReport == nil ? [:] : [TestReport.variable: reportPath.path])
        let childReport = (try? Data(contentsOf: reportPath)).flatMap { try? JSONDecoder().decode(TestReport.File.self, from: $0) }
        var fileReport = childReport ?? TestReport.File(file: file, error: "plumb ended without a report for this file")
        if printsVerdicts, !output.isEmpty, !StandardStreams.write(output) { return (.outputFailed, fileReport) }
        switch ending {
        case .exited(ExitCode.success): return (.passed, fileReport)
        case .exited(let c): return (.failed(c), fileReport)
        case .interrupted: return (.interrupted, fileReport)
        case .crashed, .stopped:
            let style = Style(enabled: options.color)
            let what: String
            switch ending {
            case .crashed(let signal): what = "plumb stopped by \(ChildCheck.describe(signal: signal)) while checking it; the other files were checked apart"
            default: what = "plumb stopped while checking it; the other files were checked apart"
            }
            if printsVerdicts { StandardStreams.write(style.red("FAIL") + " \(TerminalText.escaped(file)): \(what)\n") }
            fileReport = TestReport.File(file: file, error: what)
            return (.failed(ExitCode.failure), fileReport)
        }
    }

    /// Tests one file in this process and prints its PASS or FAIL line.
    private func testFile(_ file: String) -> (TestOutcome, TestReport.File) {
        let style = Style(enabled: options.color)
        guard let text = read(file) else { return (.failed(ExitCode.usage), TestReport.File(file: file, error: "cannot read \(file)")) }
        let runner = makeRunner(.quiet)
        let result = runner.runScript(text, file: file, path: file)
        let report = runner.finish()
        func verdict(_ line: String) {
            if printsVerdicts { StandardStreams.write(line) }
        }
        // The file's name and the messages quote what came from outside: made safe to print.
        let name = TerminalText.escaped(file)
        switch result {
        case .expectationFailed(let message, let location):
            verdict(style.red("FAIL") + " \(name):\(location.line): \(TerminalText.escapedLines(message))\n")
            return (.failed(ExitCode.failure), TestReport.file(file, text: text, report: report, error: nil))
        case .compileErrors:
            let detail = report.firstError.map { ":\($0.location.line): \($0.headline)" } ?? ": errors"
            verdict(style.red("FAIL") + " \(name)\(TerminalText.escapedLines(detail))\n")
            return (.failed(ExitCode.dataError), TestReport.file(file, text: text, report: report, error: "\(file)\(detail)"))
        case .interrupted:
            return (.interrupted, TestReport.file(file, text: text, report: report, error: "interrupted"))
        case .outputFailed:
            return (.outputFailed, TestReport.file(file, text: text, report: report, error: "standard output failed"))
        case .ok, .quit:
            verdict(style.green("PASS") + " \(name)\n")
            return (.passed, TestReport.file(file, text: text, report: report, error: nil))
        }
    }
}
