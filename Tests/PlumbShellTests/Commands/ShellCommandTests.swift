import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

#if canImport(Glibc)
import Glibc
#endif

/// The `:command` table: every entry has help, a completion and a test of its own (below, in
/// process: a runner on the virtual clock writing into a file).
@Suite struct ShellCommandTests {
    /// One case per command: the text run (commands and statements, as a script has them), what
    /// it must print, and how it must end.
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var prints: String
        var result: StepResult = .ok
        var description: String { text }
    }

    static let loadedScript: String = {
        let path = NSTemporaryDirectory() + "/plumb-command-test-\(getpid()).pipe"
        try? "just 7 | sink\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    static let svgPath = NSTemporaryDirectory() + "/plumb-command-test-\(getpid()).svg"
    static let savePath = NSTemporaryDirectory() + "/plumb-command-test-\(getpid())-saved.pipe"

    static let cases: [String: Case] = [
        "help": Case(text: ":help retry", prints: "retry TIMES"),
        "ops": Case(text: ":ops", prints: "Sources"),
        "type": Case(text: ":type just 1", prints: "AnyPublisher<Int, Never>"),
        "swift": Case(text: ":swift just 1 | map { $0 + 1 }", prints: "Just(1)"),
        "compare": Case(text: ":compare interval 100ms | take 3 | debounce 150ms", prints: "differs: 1 line (marked ≠)"),
        "bindings": Case(text: "let a = just 1\n:bindings", prints: "just 1 : AnyPublisher<Int, Never>"),
        "jobs": Case(text: "let s = subject\ns | sink &\n:jobs", prints: "[1] running"),
        "cancel": Case(text: "let s = subject\ns | sink &\n:cancel 1\n:jobs", prints: "no background jobs"),
        "trace": Case(text: ":trace on\njust 1 | sink", prints: "just#0 subscribe"),
        "marbles": Case(text: ":marbles off\n:marbles on\njust 1 | sink\n:marbles", prints: "marbles are on"),
        "export": Case(text: ":marbles on\njust 1 | sink\n:export \(svgPath)", prints: "wrote \(svgPath)"),
        "clock": Case(text: "let a = just 1\n:clock real", prints: "clock is real (bindings cleared)"),
        "step": Case(text: ":step marble \"-a-|\" | map { $0 + \"!\" }", prints: "▲ 0 ms"),
        "next": Case(text: ":step marble \"-a-|\" | map { $0 + \"!\" }\n:next", prints: "[1] map value \"a!\""),
        "advance": Case(text: ":step marble \"-a-b-|\" | debounce 150ms\n:advance 300ms", prints: "▲ 300 ms"),
        "continue": Case(text: ":step marble \"-a-b-|\"\n:continue", prints: "finished                2 values in 500 ms"),
        "break": Case(
            text: ":step marble \"-a-b-|\" | debounce 150ms\n:break debounce value\n:continue", prints: "break [1] debounce 150ms: value \"a\" at 250 ms"),
        "stop": Case(text: ":step marble \"-a-b-|\"\n:stop", prints: "cancelled"),
        "save": Case(text: "let s = subject\njust 1 | sink\n:save \(savePath)", prints: "wrote \(savePath): plumb test \(savePath) checks it"),
        // In a script `:edit` says it needs the prompt; SaveTests' tmux test edits at the keyboard.
        "edit": Case(text: "just 1 | sink\n:edit", prints: "value 1", result: .compileErrors),
        // In a script `:watch` says it needs the prompt; WatchTests watch at the keyboard.
        "watch": Case(text: ":watch \(loadedScript)", prints: "", result: .compileErrors),
        "load": Case(text: ":load \(loadedScript)", prints: "value 7"),
        "reset": Case(text: "let a = just 1\n:reset\n:bindings", prints: "no bindings yet"),
        // Not a terminal here: nothing printed (ScreenTests clear a terminal's).
        "clear": Case(text: ":clear", prints: ""),
        "quit": Case(text: ":q\n:trace on", prints: "", result: .quit),
    ]

    @Test("every command has a case here")
    func everyCommandTested() {
        #expect(Set(Self.cases.keys) == Set(ShellCommand.names))
    }

    @Test("each command does what it says", arguments: ShellCommand.names)
    func performs(_ name: String) throws {
        let c = try #require(Self.cases[name])
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        #expect(runner.run(text: c.text, file: "t.pipe") == c.result)
        _ = runner.finish()
        if c.prints.isEmpty {
            #expect(output.text.isEmpty, "\(c.text) printed:\n\(output.text)")
        } else {
            #expect(output.text.contains(c.prints), "\(c.text) printed:\n\(output.text)")
        }
    }

    @Test("every command has help: a summary, its argument syntax, and :help NAME shows them (aliases too)")
    func help() {
        for command in ShellCommand.all {
            #expect(!command.summary.isEmpty, "\(command.name)")
            for name in [command.name] + command.aliases {
                #expect(ShellHelp.help(name, style: Style(enabled: false)).contains(command.summary), "\(name)")
                #expect(ShellHelp.help(":" + name, style: Style(enabled: false)).contains(":\(command.name) \(command.arguments)"), "\(name)")
            }
            #expect(ShellHelp.overview(style: Style(enabled: false)).contains(":\(command.name) "))
        }
        #expect(ShellCommand.named("exit")?.name == "quit")
        #expect(ShellCommand.named("q")?.name == "quit")
    }

    @Test("a command that takes an argument completes it; one that takes none completes nothing")
    func completion() {
        for command in ShellCommand.all {
            #expect((command.completion == .nothing) == command.arguments.isEmpty, "\(command.name)")
        }
    }

    @Test("every command completes through the table: :marbles, :export and :swift too")
    func completesArguments() {
        let words = CompletionWords(
            sources: ["just"], operators: ["map", "retry"], bindings: ["ticks"], commands: [":help"], jobs: ["3"])
        #expect(Completer.candidates(before: ":marbles ", word: "", words: words) == .words(["3", "off", "on"]))
        #expect(Completer.candidates(before: ":export ", word: "di", words: words) == .files)
        #expect(Completer.candidates(before: ":swift just 1 | ", word: "ma", words: words) == .words(["map"]))
        #expect(Completer.candidates(before: ":swift ", word: "ju", words: words) == .words(["just"]))
        #expect(Completer.candidates(before: ":q ", word: "", words: words) == .words([]))
    }

    @Test("an unknown command is an error with a suggestion; in a script it stops the script (exit 65)")
    func unknown() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: .silent)
        #expect(runner.run(text: ":trcae on\njust 1 | sink", file: "t.pipe") == .compileErrors)
        #expect(runner.finish().exitCode == ExitCode.dataError)
        #expect(!output.text.contains("value 1"))
    }
}
