import Foundation
import PipeLanguage

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
        let command: any PlumbCommand
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            writeStandardError(.commandLineUsage(error.message))
            writeStandardError("Usage: plumb [OPTIONS] [run FILE... | check FILE... | test PATH... | help [COMMAND]]\nSee 'plumb --help'.\n")
            return ExitCode.usage
        }
        Signals.ignoreBrokenPipe()
        return command.run()
    }

    /// Ends the process with `code`. 130 (Ctrl-C stopped a script) ends it by SIGINT instead, as a
    /// program that caught SIGINT to clean up should: a shell running it in a loop or a script
    /// then stops too, and still shows status 130.
    public static func end(with code: Int32) -> Never {
        if code == ExitCode.interrupted { Signals.endByInterrupt() }
        exit(code)
    }
}
