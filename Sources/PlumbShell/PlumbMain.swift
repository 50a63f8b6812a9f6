import Foundation
import PipeLanguage
import PlumbLanguageServer

#if canImport(Glibc)
import Glibc
#endif

/// Entry point of the shell; `plumb`'s synchronous `main` calls it with the command-line arguments.
///
/// Everything runs on the calling (main) thread, which also owns readline: never hop to the main
/// actor or the main dispatch queue from here, nothing services them.
public enum PlumbMain {
    public static let version = "0.1.0"

    /// Runs the shell and returns the process exit code (0, 1, 2, 65, 130 when Ctrl-C stopped a
    /// script, or 141 when standard output's reader went away; see `plumb --help`). Pass it to `end(with:)`.
    /// - Parameter arguments: the command-line arguments without the program name.
    public static func run(arguments: [String]) -> Int32 {
        StandardStreams.reserve()
        if let mode = ServeWorker.mode { return ServeWorker.run(mode: mode) }
        ChildCheck.endWithParent()
        if let problem = StandardStreams.ensureDescriptors() {
            writeStandardError(.resourceLimit(problem))
            return ExitCode.failure
        }
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            writeStandardError(.commandLineUsage(error.message))
            writeStandardError("Usage: plumb [OPTIONS] [run FILE... | check FILE... | test PATH... | help [COMMAND]]\nSee 'plumb --help'.\n")
            return ExitCode.usage
        }
        Signals.ignoreBrokenPipe()
        let environment = ProcessInfo.processInfo.environment
        let colorAllowed = !invocation.noColor && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        var options = ShellOptions()
        options.clock = invocation.clock ?? .real
        options.format = invocation.format
        options.color = colorAllowed && invocation.format == .text && isatty(STDOUT_FILENO) == 1
        options.colorErrors = colorAllowed && isatty(STDERR_FILENO) == 1
        options.trace = invocation.trace
        options.marbles = invocation.marbles
        options.svg = invocation.svg
        options.until = invocation.until ?? Runtime.defaultHorizonNanoseconds

        switch invocation.command {
        case .help(let topic):
            StandardStreams.write((topic.map(HelpText.command) ?? HelpText.overview) + "\n")
            return StandardStreams.exitCode(after: ExitCode.success)
        case .version:
            StandardStreams.write("plumb \(version)\n")
            return StandardStreams.exitCode(after: ExitCode.success)
        case .interactive:
            // The REPL only when both ends are a terminal: `plumb > log.txt` typed at a terminal
            // reads statements as from a pipe, so no prompt, echo or bracketed-paste codes land
            // in the file.
            if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
                return StandardStreams.exitCode(after: REPL(options: options).run())
            }
            options.color = false
            return StandardStreams.exitCode(after: ScriptRunner(options: options).runStandardInputStream())
        case .run(let files):
            return StandardStreams.exitCode(after: ScriptRunner(options: options).run(files: files))
        case .check(let files):
            return StandardStreams.exitCode(after: ScriptRunner(options: options).check(files: files))
        case .learn where ChildCheck.file != nil:
            // The child of `Workshop.check`: one exercise's status, for the parent to read.
            let path = ChildCheck.file ?? ""
            let status = Workshop.checkHere(Exercise(path: path, text: ""), options: options)
            return StandardStreams.exitCode(after: StandardStreams.write(ChildCheck.encode(status)) ? ExitCode.success : ExitCode.failure)
        case .learn(let directory, let once):
            return StandardStreams.exitCode(after: Learn(options: options).run(directory: directory, once: once || isatty(STDIN_FILENO) != 1))
        case .swift(let file, let program):
            return StandardStreams.exitCode(after: ScriptRunner(options: options).swift(file: file, program: program))
        case .lsp:
            let commands = ShellCommand.all.map {
                LanguageServer.Command(name: $0.name, aliases: $0.aliases, arguments: $0.arguments, summary: $0.summary)
            }
            return StdioServer.run(commands: commands, unknownCommand: ShellCode.unknownCommand.id, exampleDiagram: ExampleRun.diagramText)
        case .serve(let directory, let host, let port, let state, let qr):
            return ServeCommand.run(directory: directory, host: host, port: port, state: state, qr: qr)
        case .manPage:
            StandardStreams.write(ManPage.roff(version: version))
            return StandardStreams.exitCode(after: ExitCode.success)
        case .completions(let shell):
            StandardStreams.write(Completions.script(for: shell))
            return StandardStreams.exitCode(after: ExitCode.success)
        case .reference(let directory):
            if let problem = OperatorReference.write(to: directory) {
                writeStandardError(.cannotWriteFile(problem))
                return ExitCode.usage
            }
            return ExitCode.success
        case .learnReset(let file):
            return StandardStreams.exitCode(after: Learn(options: options).reset(file))
        case .test(let paths):
            if invocation.clock == nil { options.clock = .virtual }
            return StandardStreams.exitCode(after: ScriptRunner(options: options, testReport: invocation.report).test(paths: paths))
        }
    }

    /// Ends the process with `code`. 130 (Ctrl-C stopped a script) ends it by SIGINT instead, as a
    /// program that caught SIGINT to clean up should: a shell running it in a loop or a script
    /// then stops too, and still shows status 130.
    public static func end(with code: Int32) -> Never {
        if code == ExitCode.interrupted { Signals.endByInterrupt() }
        exit(code)
    }
}
