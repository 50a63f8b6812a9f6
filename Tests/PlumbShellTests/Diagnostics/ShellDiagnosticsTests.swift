import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// The shell's own diagnostics (7xx): stable ids in the golden list, printed as before.
@Suite struct ShellDiagnosticsTests {
    static var goldenPath: String {
        PlumbBinary.packageRoot.appendingPathComponent("Tests/Golden/diagnostics.txt").path
    }

    @Test("every diagnostic of every layer keeps the code and name the golden list gives it")
    func golden() throws {
        let golden = try String(contentsOfFile: Self.goldenPath, encoding: .utf8).split(separator: "\n").map(String.init)
        let actual = DiagnosticID.everyLayer.map { "\($0.code) \($0.name) \($0.layer)" }
        let changed = Set(actual).symmetricDifference(golden).sorted()
        #expect(changed.isEmpty, "not as in Tests/Golden/diagnostics.txt: \(changed)")
        #expect(changed.isEmpty ? actual == golden : true, "the golden list is out of order")
    }

    @Test("shell codes are 7xx errors and 95x warnings, named after their case")
    func ranges() {
        for id in ShellCode.ids {
            #expect(id.layer == "shell")
            let number = Int(id.code.dropFirst()) ?? 0
            #expect(id.severity == .warning ? (951...999).contains(number) : (700...799).contains(number), "\(id)")
        }
        #expect(ShellCode.unknownCommand.id.description == "E701 unknown-command")
    }

    @Test("a shell error prints as it always did: at a script's line, at the prompt, or for plumb")
    func rendering() {
        let location = SourceLocation(file: "a.pipe", line: 3, column: 1)
        let message = ShellMessage.usage(":trace on|off")
        #expect(
            message.rendered(at: location, color: false) == "a.pipe:3: error[E702]: usage: :trace on|off\nfor more about this error, run `plumb help E702`\n")
        #expect(
            message.rendered(at: location, interactive: true, color: false)
                == "error[E702]: usage: :trace on|off\nfor more about this error, type `:help E702`\n")
        #expect(
            ShellMessage.noScripts("no .pipe files in x").rendered(at: nil, color: false)
                == "plumb: error[E713]: no .pipe files in x\nfor more about this error, run `plumb help E713`\n")
        #expect(
            ShellMessage.historyNotSaved("/h", "read-only").rendered(at: nil, color: false)
                == "plumb: warning[W951]: history will not be saved: /h: read-only\nfor more about this warning, run `plumb help W951`\n")
    }

    @Test(":help E701 and :help unknown-command describe the shell's diagnostic")
    func help() {
        #expect(ShellHelp.help("E701", style: Style(enabled: false)).contains("E701  unknown-command  (shell)"))
        #expect(ShellHelp.help("unknown-command", style: Style(enabled: false)).contains("E701"))
        #expect(HelpText.diagnostics.contains("E715  cannot-write-output  (shell)"))
    }
}
