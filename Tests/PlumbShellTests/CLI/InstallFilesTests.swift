import Foundation
import Testing

@testable import PlumbShell

/// What Scripts/install writes besides the binary: the manual page (`plumb help --man`) and the
/// completion scripts (`plumb completions bash|zsh|fish`). Scripts/check-install installs them
/// into a temporary prefix and checks them again there.
@Suite struct InstallFilesTests {
    static func installed(_ command: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }

    @Test("the manual page has every subcommand and option of plumb --help, in the roff requests man reads")
    func manPage() throws {
        let result = try PlumbBinary.run(["help", "--man"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let roff = result.stdout
        #expect(roff.hasPrefix(".TH PLUMB 1 ") && roff.contains(".SH NAME\nplumb \\- an interactive shell for reactive pipelines"))
        for option in CommandLineOption.all.map(\.name) where HelpText.overview.contains(option + " ") {
            #expect(roff.contains(ManPage.escaped(option)), "\(option)")
        }
        for line in roff.split(separator: "\n") where line.hasPrefix(".") {
            #expect([".TH", ".SH", ".TP", ".PP", ".nf", ".fi", ".nh"].contains(String(line.prefix(3))), "\(line)")
        }
    }

    @Test(
        "man -l renders the manual page without a warning",
        .enabled(if: installed("man") && installed("groff"), "man or groff is not installed (Debian man-db, groff)"))
    func manPageRenders() throws {
        let roff = try PlumbBinary.run(["help", "--man"]).stdout
        let page = try PlumbBinary.script(roff, name: "plumb")
        let rendered = try PlumbBinary.shell("MANWIDTH=80 man --warnings -l \(page) 2>&1 >/dev/null; echo \"status $?\"")
        #expect(rendered.stdout == "status 0\n", "\(rendered)")
    }

    @Test(
        "man -l prints no literal backtick, and no paragraph breaks inside a parenthesis",
        .enabled(if: installed("man") && installed("groff"), "man or groff is not installed (Debian man-db, groff)"))
    func manPageReadsBack() throws {
        let roff = try PlumbBinary.run(["help", "--man"]).stdout
        let page = try PlumbBinary.script(roff, name: "plumb")
        let rendered = try PlumbBinary.shell("MANWIDTH=80 man -l \(page) 2>/dev/null")
        #expect(rendered.status == 0)
        #expect(!rendered.stdout.contains("`"), "\(rendered.stdout)")
        #expect(rendered.stdout.contains("an interactive shell"))
        for paragraph in rendered.stdout.components(separatedBy: "\n\n") {
            var depth = 0
            for c in paragraph {
                if c == "(" { depth += 1 }
                if c == ")" { depth -= 1 }
            }
            #expect(depth == 0, "a paragraph breaks inside a parenthesis: \(paragraph)")
        }
    }

    @Test("each completion script names every subcommand and option", arguments: Completions.shells)
    func completions(_ shell: String) throws {
        let result = try PlumbBinary.run(["completions", shell])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let options = CommandLineOption.all.map(\.name).map { shell == "fish" ? "-l \($0.dropFirst(2))" : $0 }
        for word in PlumbCommands.names + options {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }

    /// `SHELL -n` reads the completion script for `shell` without an error.
    static func loads(_ shell: String) throws {
        let file = try PlumbBinary.script(try PlumbBinary.run(["completions", shell]).stdout, name: "plumb-\(shell)")
        let loaded = try PlumbBinary.shell("\(shell) -n \(file) && echo loads")
        #expect(loaded.stdout == "loads\n", "\(loaded)")
    }

    @Test("the bash completion script loads in bash", .enabled(if: installed("bash"), "bash is not installed"))
    func loadsInBash() throws { try Self.loads("bash") }

    @Test("the zsh completion script loads in zsh", .enabled(if: installed("zsh"), "zsh is not installed (Debian zsh)"))
    func loadsInZsh() throws { try Self.loads("zsh") }

    @Test("the fish completion script loads in fish", .enabled(if: installed("fish"), "fish is not installed (Debian fish)"))
    func loadsInFish() throws { try Self.loads("fish") }

    @Test("bash: the loaded function completes subcommands, --clock's values and help topics")
    func bashCompletes() throws {
        let script = try PlumbBinary.script(try PlumbBinary.run(["completions", "bash"]).stdout, name: "plumb-bash")
        func offered(_ words: [String]) throws -> String {
            let list = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try PlumbBinary.shell(
                "source \(script); COMP_WORDS=(\(list)); COMP_CWORD=\(words.count - 1); _plumb; echo \"${COMPREPLY[*]}\"")
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        #expect(try offered(["plumb", "--clock", ""]) == "real virtual")
        #expect(try offered(["plumb", "--clock", "virtual", "te"]) == "test")
        #expect(try offered(["plumb", "help", "diag"]) == "diagnostics")
        #expect(try offered(["plumb", "completions", "f"]) == "fish")
        #expect(try offered(["plumb", "--for"]) == "--format")
    }
}
