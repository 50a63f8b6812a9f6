import Testing

@testable import PipeLanguage

/// Notes that point at text carry a range, and render as a compiler's do: their own
/// `file:line:col: note:` line, then that line with a caret when it is in the compiled text.
@Suite struct DiagnosticNoteTests {
    private func errors(_ text: String, session: Session = Session(runtime: Runtime(clock: .virtual))) -> [Diagnostic] {
        session.compile(text, file: "a.pipe").diagnostics.filter { $0.severity == .error }
    }

    @Test("E313: sending to a binding that is not a subject points at the name in its let")
    func notSubject() throws {
        let marked = MarkedText("let 1️⃣n = just 1\nn.send 2")
        let d = try #require(errors(marked.text).first)
        #expect(d.id.code == "E313")
        let note = try #require(d.notes.first)
        #expect(note.message == "'n' was bound here")
        #expect(note.range == SourceRange(location: SourceLocation(file: "a.pipe", line: 1, column: 5), offset: marked[1], length: 1))
        #expect(
            d.rendered(source: marked.text, color: false) == """
                a.pipe:2:1: error[E313]: 'n' is not a subject; only 'subject' and 'currentValue' bindings accept send, finish and fail
                n.send 2
                ^
                a.pipe:1:5: note: 'n' was bound here
                let n = just 1
                    ^
                """)
    }

    @Test("a note pointing at an earlier compile's text (an earlier REPL line) shows its position, not a line it cannot see")
    func earlierText() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        for statement in session.compile("let n = just 1", file: "<repl>", firstLine: 1).statements { _ = session.execute(statement) }
        let d = try #require(session.compile("n.send 2", file: "<repl>", firstLine: 2).diagnostics.first)
        #expect(d.notes.first?.range?.location == SourceLocation(file: "<repl>", line: 1, column: 5))
        #expect(
            d.rendered(source: "n.send 2", color: false).hasSuffix(
                """
                n.send 2
                ^
                <repl>:1:5: note: 'n' was bound here
                """))
    }

    @Test("E331: a note points at the stage the upstream values come from, the caret as wide as its scalars")
    func kindsDoNotJoin() throws {
        let marked = MarkedText("1️⃣just \"é\" | 2️⃣append 1")
        let d = try #require(errors(marked.text).first)
        #expect(d.id.code == "E331")
        #expect(d.notes.map(\.message) == ["the String values come from here", "Combine's .append(_:) needs one Output type on both sides"])
        #expect(d.notes[0].range?.offset == marked[1] && d.notes[0].range?.length == 9)
        #expect(d.notes[1].range == nil)
        let rendered = d.rendered(source: marked.text, color: false)
        #expect(
            rendered.hasSuffix(
                """
                a.pipe:1:1: note: the String values come from here
                just "é" | append 1
                ^~~~~~~~
                note: Combine's .append(_:) needs one Output type on both sides
                """), "\(rendered)")
        #expect(marked[2] == 12)
    }

    @Test("E328: using a binding whose let had errors points at that let")
    func bindingHadErrors() throws {
        let marked = MarkedText("let 1️⃣bad = just 1 | retyr\nfrom [1] | merge (bad)")
        let d = try #require(errors(marked.text).last)
        #expect(d.id.code == "E328")
        #expect(d.notes.first?.message == "the let of 'bad' is here")
        #expect(d.notes.first?.range?.offset == marked[1] && d.notes.first?.range?.length == 3)
        #expect(d.rendered(source: marked.text, color: false).hasSuffix("a.pipe:1:5: note: the let of 'bad' is here\nlet bad = just 1 | retyr\n    ^~~"))
    }

    @Test("a note without a range renders as before: note: text")
    func plainNote() throws {
        let d = try #require(errors("just 1 | map 1 2").first)
        #expect(d.notes.allSatisfy { $0.range == nil })
        #expect(d.rendered(source: "just 1 | map 1 2", color: false).contains("\nnote: signature: "))
    }
}
