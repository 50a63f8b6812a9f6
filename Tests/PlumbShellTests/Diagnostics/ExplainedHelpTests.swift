import PipeLanguage
import PlumbServer
import Testing

@testable import PlumbShell

/// `plumb help E331` explains; `plumb help flatMap` shows the entry's help; every id of every
/// layer, the shell's and the room's too, has an explanation.
@Suite struct ExplainedHelpTests {
    /// The shell's and the room's ids have no `.pipe` example: they come from commands, files,
    /// streams, the machine and the room's page, which a snippet checked by the language cannot
    /// show. Their explanations say how they arise.
    static let describedLayers: Set<String> = [ShellCode.layer, RoomCode.layer]

    @Test("every id of every layer has an explanation; the shell's and the room's say how they arise")
    func everyLayerExplained() {
        for id in DiagnosticID.everyLayer {
            guard let explanation = id.anyExplanation else {
                Issue.record("\(id) has no explanation")
                continue
            }
            #expect(!explanation.meaning.isEmpty, "\(id)")
            if Self.describedLayers.contains(id.layer) {
                #expect(explanation.arises.map { !$0.isEmpty } == true, "\(id): say how it arises")
            }
        }
    }

    @Test("plumb help E331 and plumb help kinds-do-not-join print the explanation", arguments: ["E331", "e331", "kinds-do-not-join"])
    func explainsAnID(_ topic: String) throws {
        let result = try PlumbBinary.run(["help", topic])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasPrefix("E331  kinds-do-not-join  (checker)\n  an error, found by the checker"), "\(result)")
        #expect(result.stdout.contains("For example, this reports it:\n\n    just 1 | merge (just \"a\")\n"), "\(result)")
        #expect(result.stdout.contains("Fixed:\n\n    just 1 | merge (just 2)\n"), "\(result)")
        #expect(result.stdout.contains("In Combine: one publisher has one Output type"), "\(result)")
    }

    @Test("plumb help E701 says how a shell diagnostic arises")
    func explainsAShellID() throws {
        let result = try PlumbBinary.run(["help", "E701"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("E701  unknown-command  (shell)\n"), "\(result)")
        #expect(result.stdout.contains("How it arises: `:hepl`"), "\(result)")
    }

    @Test(":help E331 in the shell prints the same explanation")
    func shellHelpExplains() throws {
        let result = try PlumbBinary.run([], input: ":help E331\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("For example, this reports it:\n\n    just 1 | merge (just \"a\")\n"), "\(result)")
    }

    @Test("plumb help flatMap (or an alias) prints the entry's help as :help does", arguments: ["flatMap", "take", "sink"])
    func entryHelp(_ name: String) throws {
        let result = try PlumbBinary.run(["help", name])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let entry = try #require(Catalog.entry(named: name))
        #expect(result.stdout == EntryHelp.text(entry, style: .plain) + "\n", "\(result)")
        #expect(result.stdout.contains("  Combine: "), "\(result)")
        let shell = try PlumbBinary.run(["--no-color"], input: ":help \(name)\n")
        #expect(shell.stdout.contains(result.stdout), "\(shell)")
    }

    @Test("every explained fix passes plumb test, and no static error's example does")
    func fixesPass() throws {
        let explained = DiagnosticID.all.compactMap { id in id.explanation.flatMap { e in e.fix.map { (id, e.example ?? "", $0) } } }
        #expect(explained.count > 100)
        let fixes = try PlumbBinary.folder(Dictionary(uniqueKeysWithValues: explained.map { ("\($0.0.code).pipe", $0.2 + "\n") }))
        let fixed = try PlumbBinary.run(["test", fixes])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.stdout.contains("\(explained.count) passed, 0 failed"), "\(fixed)")
        let examples = try PlumbBinary.folder(Dictionary(uniqueKeysWithValues: explained.map { ("\($0.0.code).pipe", $0.1 + "\n") }))
        let reported = try PlumbBinary.run(["test", examples])
        #expect(reported.status != 0, "\(reported)")
        // A static error's example never passes; a run-time error's or a warning's may (plumb test
        // passes a run that fails when nothing expects otherwise), and the language's own test
        // checks those examples report their ids.
        let passed = Set(reported.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS ") }.map { String($0.split(separator: "/").last ?? "") })
        let staticErrors = explained.filter { $0.0.severity == .error && ["lexer", "parser", "checker"].contains($0.0.layer) }
        #expect(staticErrors.count >= 80)
        for (id, _, _) in staticErrors { #expect(!passed.contains("\(id.code).pipe"), "\(id)'s example passes") }
    }

    @Test("an unknown topic is a usage error with the closest command, entry or id")
    func unknownTopic() throws {
        let entry = try PlumbBinary.run(["help", "flatMapp"])
        #expect(entry.status == 2, "\(entry)")
        #expect(entry.stdout.isEmpty, "\(entry)")
        #expect(entry.stderr.contains("no help for 'flatMapp'; did you mean 'flatMap'?"), "\(entry)")
        let nothing = try PlumbBinary.run(["help", "zzzzzzzzzz"])
        #expect(nothing.status == 2, "\(nothing)")
        #expect(nothing.stderr.contains("no help for 'zzzzzzzzzz' (plumb help lists the commands"), "\(nothing)")
    }
}
