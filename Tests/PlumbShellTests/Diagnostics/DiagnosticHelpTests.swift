import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

@Suite struct DiagnosticHelpTests {
    @Test("plumb help diagnostics lists every id as `E101  unterminated-string  (lexer)`")
    func listsEveryID() throws {
        let result = try PlumbBinary.run(["help", "diagnostics"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = Set(result.stdout.split(separator: "\n").map(String.init))
        #expect(lines.contains("E101  unterminated-string  (lexer)"), "\(result)")
        #expect(lines.contains("E602  division-by-zero  (evaluation)"), "\(result)")
        for id in DiagnosticID.all {
            #expect(lines.contains("\(id.code)  \(id.name)  (\(id.layer))"), "\(id) missing")
        }
    }

    @Test("plumb help ID describes one, by code or by name, ignoring the code's case", arguments: ["E101", "e101", "unterminated-string"])
    func one(_ topic: String) throws {
        let result = try PlumbBinary.run(["help", topic])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("E101  unterminated-string  (lexer)\n"), "\(result)")
        #expect(result.stdout.contains("an error, found by the lexer"), "\(result)")
    }

    @Test("an unknown id is a usage error; a misspelt name gets a suggestion")
    func unknown() throws {
        let code = try PlumbBinary.run(["help", "E999"])
        #expect(code.status == 2, "\(code)")
        #expect(code.stderr.contains("no diagnostic 'E999' (plumb help diagnostics lists them)"), "\(code)")
        let name = try PlumbBinary.run(["help", "unterminated-strng"])
        #expect(name.status == 2, "\(name)")
        #expect(name.stderr.contains("did you mean 'unterminated-string'?"), "\(name)")
        let topic = try PlumbBinary.run(["help", "diagnostic"])
        #expect(topic.stderr.contains("did you mean 'diagnostics'?"), "\(topic)")
    }

    @Test("plumb --help and plumb help help mention the diagnostics")
    func mentioned() throws {
        let help = try PlumbBinary.run(["--help"])
        #expect(help.stdout.contains("plumb help diagnostics | ID"), "\(help)")
        let helpHelp = try PlumbBinary.run(["help", "help"])
        #expect(helpHelp.stdout.contains("plumb help diagnostics"), "\(helpHelp)")
    }

    @Test(":help diagnostics and :help ID in the shell; the overview mentions them")
    func shellHelp() throws {
        let result = try PlumbBinary.run([], input: ":help diagnostics\n:help division-by-zero\n:help E101\n:help\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("E101  unterminated-string  (lexer)\n"), "\(result)")
        #expect(result.stdout.contains("E602  division-by-zero  (evaluation)\n  an error, raised while a closure runs"), "\(result)")
        #expect(result.stdout.contains(":help diagnostics lists the error and warning codes"), "\(result)")
    }

    /// Issue 41: every bad input gets its id. `:help` of a topic it does not know was a line of
    /// ordinary output (no id, exit 0); it is E708 at its line, with the closest topic.
    @Test(":help of an unknown topic is error E708 at its line, with what it may have meant")
    func unknownTopic() throws {
        let cases = [
            ("unterminated-strng", "<stdin>:2: error[E708]: no help for 'unterminated-strng'; did you mean 'unterminated-string'?"),
            ("flatMapp", "<stdin>:2: error[E708]: no help for 'flatMapp'; did you mean 'flatMap'?"),
            ("zzzzzzzzzz", "<stdin>:2: error[E708]: no help for 'zzzzzzzzzz' (:help lists the commands, :ops the operators"),
        ]
        for (topic, expected) in cases {
            let result = try PlumbBinary.run([], input: ":help filter\n:help \(topic)\n")
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains(expected), "\(result)")
            #expect(result.stderr.contains("plumb help E708"), "\(result)")
            #expect(result.stdout.contains("filter"), "the good line before it ran: \(result)")
            #expect(!result.stdout.contains("no help for"), "\(result)")
        }
    }

    @Test("--format jsonl: a failed event carries the error's id; a user's fail has none")
    func jsonID() throws {
        let script = try PlumbBinary.script("just 1 | map { $0 / 0 }\nfail \"bad\"\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "--format", "jsonl", "run", script])
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        let failures = objects.filter { $0["event"] as? String == "failed" }
        #expect(failures.count == 2, "\(result)")
        #expect(failures.first?["id"] as? String == "E602")
        #expect(failures.first?["error"] as? String == "division by zero: 1 / 0")
        #expect(failures.last?["id"] == nil)
    }
}

@Suite struct FixOfferTests {
    func diagnostics(_ text: String) -> [Diagnostic] {
        Session(runtime: Runtime(clock: .virtual)).compile(text, file: "<input>").diagnostics
    }

    @Test("each error's first fix-it is made, last to first")
    func several() {
        let text = "let s = subject\ns.sned 1\njust 1 | map { $0 == tru }"
        #expect(FixIt.applyingFirstFixes(of: diagnostics(text), to: text) == "let s = subject\ns.send 1\njust 1 | map { $0 == true }")
    }

    @Test("no fix-it, no offer")
    func none() {
        let text = "just 1 | map { $0 + }"
        #expect(FixIt.applyingFirstFixes(of: diagnostics(text), to: text) == nil)
    }

    @Test("piped standard input prints the diagnostic but offers no fix")
    func notInteractive() throws {
        let result = try PlumbBinary.run([], input: "just 1 | map { $0 == tru }\n")
        #expect(result.stderr.contains("did you mean 'true'?"), "\(result)")
        #expect(!result.stderr.contains("fix:"), "\(result)")
        #expect(!result.stdout.contains("fix:"), "\(result)")
    }
}
