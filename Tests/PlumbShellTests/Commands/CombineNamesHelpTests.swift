import PipeLanguage
import Testing

@testable import PlumbShell

/// `:help` on a Combine method that is not a stage in plumb (`CombineNames`) says what to do
/// instead, and so does `plumb help NAME`; both used to say `no help for 'store'; did you mean 'share'?`.
@Suite struct CombineNamesHelpTests {
    @Test("`:help eraseToAnyPublisher` and `:help store` explain; a command of the same name keeps its help")
    func help() {
        let style = Style(enabled: false)
        for name in ["eraseToAnyPublisher", "store", "assign"] {
            let entry = CombineNames.entry(named: name)
            #expect(ShellHelp.problem(with: name) == nil, "\(name)")
            #expect(ShellHelp.help(name, style: style) == "\(name): Combine's, not a stage in plumb.\n  \(entry?.instead ?? "").")
        }
        // `plumb help NAME` prints the same (it was a usage error: no help for 'store').
        for name in ["eraseToAnyPublisher", "store"] {
            #expect(HelpText.isTopic(name))
            #expect(HelpText.command(name) == ShellHelp.help(name, style: style))
        }
        // `cancel` is also a shell command (`:cancel N`): `:help cancel` is that command's help.
        #expect(ShellHelp.help("cancel", style: style) == ShellHelp.help(":cancel", style: style))
        #expect(ShellHelp.help("cancel", style: style).contains("Combine's") == false)
    }
}
