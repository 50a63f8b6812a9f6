import Foundation
import Testing

/// A command's pipeline argument (`:type`, `:swift`, `:compare`, `:step`) with an error is a bad
/// line like any other (issue 41: every bad input gets its position and id): the error is said
/// at the command's own file, line and column, with the line as written under it, and in a
/// script it is a static error (exit 65). Before, it was said at `<type>:1:10` (the argument's
/// own column, in a file that does not exist) and the script went on to exit 0.
@Suite struct CommandArgumentTests {
    @Test(
        "each command's bad argument is an error at its script line and column; the script fails",
        arguments: [
            ("type", ["run"]), ("swift", ["run"]), ("compare", ["run"]), ("step", ["--clock", "virtual", "run"]),
        ])
    func placed(command: String, options: [String]) throws {
        // `filtr` starts after `:NAME ` and `just 1 | `.
        let column = command.count + 2 + "just 1 | ".count + 1
        let script = try PlumbBinary.script("just 2 | sink\n:\(command) just 1 | filtr { $0 > 0 }\n", name: "argument-\(command)")
        let result = try PlumbBinary.run(options + [script])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("\(script):2:\(column): error[E302]: unknown operator 'filtr'"), "\(result)")
        #expect(result.stderr.contains(":\(command) just 1 | filtr { $0 > 0 }\n"), "the line as written: \(result)")
        #expect(!result.stderr.contains("<\(command)>"), "\(result)")
    }
}
