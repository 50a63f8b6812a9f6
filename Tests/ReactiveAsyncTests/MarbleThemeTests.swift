import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// ``MarbleTheme/asyncAlgorithms``: swift-async-algorithms' ASCII theme (its `Theme.swift` and
/// `AsyncSequenceValidation.docc/Validation.md` token table) translated to ``MarbleNotation``.
@Suite struct MarbleThemeTests {
    @Test(
        "the package's tokens become ours: ^ → #, [ ] → ( ), spaces stay",
        arguments: [
            ("a-b^", "a-b#"),
            ("[ab]-|", "(ab)-|"),
            ("'foo' -[x|]", "'foo' -(x|)"),
            ("--'[^]'|", "--'[^]'|"),
            ("ab^cd|", "ab#"),
            ("[a|]-b", "(a|)"),
        ])
    func translates(diagram: String, expected: String) {
        #expect(MarbleTheme.asyncAlgorithms.translate(diagram).diagram == expected)
        #expect(MarbleTheme.plumb.translate(diagram).diagram == diagram)
    }

    @Test("';' is a cancellation at its step (a step of its own, per the package's Validation.md)")
    func cancellation() {
        let translated = MarbleTheme.asyncAlgorithms.translate("a'bc'[de];-")
        #expect(translated.cancelAt == 3)
        #expect(translated.diagram == "a'bc'(de)--")
    }

    @Test("an input without | or ^ finishes at the step after its end; the expected diagram is left as drawn")
    func unterminatedInput() {
        #expect(MarbleTheme.asyncAlgorithms.translate("-b-d", input: true).diagram == "-b-d|")
        #expect(MarbleTheme.asyncAlgorithms.translate("-b-d").diagram == "-b-d")
        #expect(MarbleTheme.asyncAlgorithms.translate("-b^", input: true).diagram == "-b#")
    }

    @Test("',' (the package's delay-next token) is not translated, so the diagram is reported invalid")
    func delayNextIsRejected() {
        let result = validate(theme: .asyncAlgorithms) {
            "a,b|"
            $0.inputs[0]
            "ab|"
        }
        #expect(!result.passed)
        #expect(result.problem != nil)
    }

    @Test("validate(theme: .asyncAlgorithms) runs the package's merge example and reports a mismatch with both diagrams")
    func validates() {
        // The package's Validation.md example.
        let passing = validate(theme: .asyncAlgorithms) {
            "a-c--f-|"
            "-b-de-g|"
            merge($0.inputs[0], $0.inputs[1])
            "abcdefg|"
        }
        #expect(passing.passed, "\(passing)")
        let failing = validate(theme: .asyncAlgorithms) {
            "a-c--f-|"
            "-b-de-g|"
            merge($0.inputs[0], $0.inputs[1])
            "abcdef-|"
        }
        #expect(!failing.passed)
        #expect(failing.description.contains("Expected: abcdef-|"))
        #expect(failing.description.contains("Actual:   abcdefg|"))
    }
}
