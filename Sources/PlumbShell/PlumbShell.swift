import PipeLanguage

/// Entry point of the shell; `plumb`'s `main` calls it with the command-line arguments.
public enum PlumbMain {
    /// Runs the shell and returns the process exit code.
    public static func run(arguments: [String]) -> Int32 { 0 }
}
