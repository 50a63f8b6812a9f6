import ReactiveAsync
import ReactiveAsyncTesting
import Testing

@Suite struct MarbleNotationTests {
    // The tokens of the `.pipe` language's marble notation (Sources/PipeLanguage/Marbles/MarbleNotation.swift).
    @Test("steps, values, quoted values, groups, finish and failure parse to events at their steps")
    func parses() throws {
        let events = try MarbleNotation.parse("-a-(b'10')- |")
        #expect(events.map(\.step) == [1, 3, 3, 5])
        #expect(events.map(\.event) == [.value("a"), .value("b"), .value("10"), .finished])
        #expect(try MarbleNotation.parse("ab#").map(\.event) == [.value("a"), .value("b"), .failed])
    }

    @Test("invalid diagrams are reported with the culprit's offset", arguments: ["a|b", "(a(b))", "a)", "()", "(a", "'ab", "''", "a*"])
    func rejects(diagram: String) {
        #expect(throws: MarbleNotation.Problem.self) { try MarbleNotation.parse(diagram) }
    }

    @Test("rendering is canonical: single-event groups lose their parentheses, spaces go, long values are quoted")
    func rendersCanonically() throws {
        #expect(MarbleNotation.render(try MarbleNotation.parse("(a) - ('xy'|)")) == "a-('xy'|)")
        #expect(MarbleNotation.glyph("7") == "7")
        #expect(MarbleNotation.glyph("hello") == "'hello'")
    }
}

@Suite struct MarbleValidationTests {
    @Test("a matching run passes with no diff lines")
    func passes() {
        let result = validate {
            "a-b|"
            $0.inputs[0]
            "a-b|"
        }
        #expect(result.passed)
        #expect(result.description.contains("^") == false)
    }

    @Test("a mismatch reports Expected: and Actual: aligned, with the first differing step marked")
    func reportsMismatch() {
        let result = validate {
            "a-b|"
            $0.inputs[0]
            "a--b|"
        }
        #expect(!result.passed)
        let lines = result.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 5, "\(result)")
        guard lines.count >= 5 else { return }
        #expect(lines[0] == "Input 0:  a-b|")
        #expect(lines[1] == "Expected: a--b|")
        #expect(lines[2] == "Actual:   a-b|")
        #expect(lines[3] == "            ^")
        #expect(lines[4] == "step 2: expected no event, got b")
    }

    @Test("an invalid diagram fails the test with the reason")
    func invalidDiagram() {
        let result = validate {
            "a-*|"
            $0.inputs[0]
            "a-b|"
        }
        #expect(!result.passed)
        #expect(result.description.hasPrefix("Invalid marble diagram: 'a-*|', character 2"))
    }

    @Test("an input reproduces its diagram, failures included; an endless one is cancelled at the end")
    func inputsReplay() {
        for diagram in ["abc|", "-a--(bc)-|", "a-#", "", "--a-"] {
            let result = validate {
                diagram
                $0.inputs[0]
                diagram
            }
            #expect(result.passed, "\(result)")
        }
    }

    @Test("cancelAt cancels the consumer at that step, before anything else due then")
    func cancelAt() {
        let result = validate(cancelAt: 2) {
            "abcd|"
            $0.inputs[0]
            "ab"
        }
        #expect(result.passed, "\(result)")
    }

    @Test("several inputs run on one clock")
    func severalInputs() {
        let result = validate {
            "a--|"
            "-b-|"
            "--c|"
            $0.inputs[2]
            "--c|"
        }
        #expect(result.passed, "\(result)")
    }
}
