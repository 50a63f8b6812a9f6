import Testing

@testable import PlumbShell

@Suite struct CompletionsSubcommandTests {
    @Test("plumb completions takes one known shell", arguments: Completions.shells)
    func parses(_ shell: String) throws {
        #expect(try parsed(["completions", shell]) == CompletionsSubcommand(shell: shell))
    }

    @Test("any other shell, or none, is a usage error", arguments: [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"]])
    func refuses(arguments: [String]) {
        #expect(throws: UsageError(message: "completions needs one shell: bash, zsh, fish")) { try CommandLineParser.parse(arguments) }
    }

    @Test("zsh and fish describe every subcommand and option with its summary")
    func describes() {
        for command in PlumbCommands.all {
            let name = command.configuration.name
            #expect(Completions.zsh.contains("'\(name):\(command.configuration.summary.replacingOccurrences(of: "'", with: "'\\''"))'"), "\(name)")
            #expect(Completions.fish.contains("-a \(name) -d '\(command.configuration.summary.replacingOccurrences(of: "'", with: "\\'"))'"), "\(name)")
        }
        #expect(Completions.zsh.contains("'serve:a workshop room in the browser"))
        for option in CommandLineOption.all {
            #expect(Completions.fish.contains("-l \(option.name.dropFirst(2))"), "\(option.name)")
            #expect(Completions.zsh.contains("'\(option.name)["), "\(option.name)")
        }
    }

    @Test("an option that takes a value completes that value, and bash skips it when finding the subcommand")
    func values() {
        #expect(Completions.zsh.contains("'--port[(serve) the port to listen on]:port: '"))
        #expect(Completions.fish.contains("complete -c plumb -l state -x -a '(__fish_complete_directories)'"))
        #expect(Completions.bash.contains("--clock|--format|--until|--svg|--reset|--report|--host|--port|--state) ((i++)) ;;"))
        #expect(Completions.bash.contains("junit) COMPREPLY=($(compgen -f -X '!*.xml'"))
    }
}
