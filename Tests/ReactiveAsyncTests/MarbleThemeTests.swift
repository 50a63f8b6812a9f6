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

    // The package's `Event.swift`: `,` (`.delayNext`) advances a step outside a group and
    // produces no event; its `Test.swift` builds the consumer's "active ticks" from the expected
    // diagram: one at the start, one at each event's instant, and a `.delayNext` at instant t
    // replaces the last one with t + 1. Our steps are the package's instants minus one.
    @Test(
        "',' is a step without an event and moves the consumer's pending next() to the step after it",
        arguments: [
            // The package's Validation.md example: asks at step 1 (after the `,`), gets a there,
            // asks again at step 2 (after the grouped `,`), gets b.
            (",[a,]b", "-(a )b", [1, 2, 2]),
            // The package's test_bufferingOldest_noDrops output (instants 0, 4, 5, 6, 7, 7, 7, 8
            // in the package's numbering).
            ("X,,[1,][2,][3,][45]|", "X--(1 )(2 )(3 )(45)|", [-1, 3, 4, 5, 6, 6, 6, 7]),
            // Without `,`, a call at the start and one at each event: asked again at once.
            ("a-b|", "a-b|", [-1, 0, 2, 3]),
            // A group of only `,` is a step with no event.
            ("a[,]b|", "a-b|", [-1, 2, 2, 3]),
        ])
    func delayNext(diagram: String, translated: String, pulls: [Int]) {
        let translation = MarbleTheme.asyncAlgorithms.translate(diagram)
        #expect(translation.diagram == translated)
        #expect(translation.pulls == pulls)
        #expect(MarbleTheme.plumb.translate(diagram).pulls == nil)
    }

    @Test("',' in an input is only a step (the package's Input parses it as an event with no result)")
    func delayNextInInput() {
        #expect(MarbleTheme.asyncAlgorithms.translate("a,b", input: true).diagram == "a-b|")
        #expect(MarbleTheme.asyncAlgorithms.translate("a,b", input: true).pulls == nil)
    }

    @Test("a ',' makes the consumer late: an input's element waits for the delayed next()")
    func delayNextDelaysTheConsumer() {
        // Input b is due at step 1 and the finish at step 2; the consumer asks again only at
        // step 3, so b and the finish both arrive there.
        let late = validate(theme: .asyncAlgorithms) {
            "ab|"
            $0.inputs[0]
            "a,,[b|]"
        }
        #expect(late.passed, "\(late)")
        // Drawn without the delay, the consumer asks again at once after a and has b at step 1
        // (then, on the package's schedule, asks for the end only at the expected step 3): the
        // diagram is read, not ignored.
        let eager = validate(theme: .asyncAlgorithms) {
            "ab|"
            $0.inputs[0]
            "a--[b|]"
        }
        #expect(!eager.passed)
        #expect(eager.actual == "ab-|")
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
