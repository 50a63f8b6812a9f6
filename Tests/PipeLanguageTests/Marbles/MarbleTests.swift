import Testing
@testable import PipeLanguage

/// The `marble` source and marble notation (`expect marbles` writes what `marble` reads).
@Suite struct MarbleTests {
    /// Runs `text` on virtual time and writes its events as marbles.
    static func marbles(of text: String, frame: Int64 = 100_000_000) -> String {
        let events = run(text)
        var timeline: [(time: Int64, token: MarbleNotation.Token)] = []
        for line in events {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ms = Int64(parts[0]) else { continue }
            let time = ms * 1_000_000
            if parts[1].hasPrefix("value ") {
                let text = String(parts[1].dropFirst(6))
                let value: Value = Int(text).map(Value.int) ?? .string(text.hasPrefix("\"") ? String(text.dropFirst().dropLast()) : text)
                timeline.append((time, .value(value)))
            } else if parts[1] == "finished" {
                timeline.append((time, .finished))
            } else if parts[1].hasPrefix("failed") {
                timeline.append((time, .failed))
            }
        }
        return MarbleNotation.render(timeline, frame: frame)
    }

    static let roundTrips = [
        "|", "#", "a|", "-a|", "--a--|", "-a-b-c-|", "abc|", "(ab)|", "-(ab)-|", "(a|)", "-(ab|)", "(a#)",
        "-a-#", "--#", "0123456789|", "-1-2-3-|", "'10'|", "-'10'-'200'-|", "'hello'-'world'|", "-(a'10')-|",
        "a-----------------------------b|", "-------|", "a", "-a-b", "a-b-c", "(abc)", "-(12)-(34)-|",
        "x-y-z-#", "'abc'#", "(ab)(cd)|", "-a-(bc)-d-|", "9|", "--(1'22')|", "a--------------------------------------------------|",
        "-z|", "ABC|", "-'x y'-|", "(Ab)-|", "('hi'|)", "-a-a-a-|", "-", "---",
    ]

    @Test("marble S, written back as marbles, is S (over 40 strings)", arguments: roundTrips)
    func roundTrip(_ s: String) {
        // A string of only idle frames ends where its last event does: nothing.
        let expected = s.allSatisfy { $0 == "-" } ? "" : s
        #expect(Self.marbles(of: "marble \"\(s)\"") == expected, "\(s)")
    }

    @Test("events come at frame × 100ms from the subscription; frame: changes the frame; error: the message")
    func times() {
        #expect(run("marble \"-a-(bc)-|\"") == ["0 subscribed", "100 value \"a\"", "300 value \"b\"", "300 value \"c\"", "500 finished"])
        #expect(run("marble \"-1-2|\" frame: 20ms") == ["0 subscribed", "20 value 1", "60 value 2", "80 finished"])
        #expect(run("marble \"--#\" error: \"sensor lost\"") == ["0 subscribed", "200 failed: sensor lost"])
        #expect(run("marble \"#\"").last == "0 failed: marble error")
        // Cold: each subscription plays the string from its own start.
        #expect(run("timer 250ms | flatMap { marble \"-a|\" }") == ["0 subscribed", "350 value \"a\"", "450 finished"])
    }

    @Test("the static pass reads the marble string: kinds of its values, whether it fails")
    func inference() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(try session.types(of: "marble \"-1-2|\"").get().type.description == "AnyPublisher<Int, Never>")
        #expect(try session.types(of: "marble \"-a-#\"").get().type.description == "AnyPublisher<String, Error>")
        #expect(diagnose("marble \"-1-|\" | retry 1").map(\.id.name) == ["retry-has-no-effect"])
    }

    @Test(
        "a bad marble string is a diagnostic pointing at the character",
        arguments: [
            ("marble \"-a-?-|\"", 12, "'?' is not marble notation (use - a-z 0-9 'text' ( ) | #)"),
            ("marble \"-a-|-b\"", 13, "nothing can follow '|' in a marble string"),
            ("marble \"-(a(b))-|\"", 12, "groups cannot be nested"),
            ("marble \"-(ab\"", 10, "the group '(' is never closed"),
            ("marble \"-a)-|\"", 11, "')' without an opening '('"),
            ("marble \"-()-|\"", 10, "an empty group '()'; write '-' for a frame with no event"),
            ("marble \"-'ab-|\"", 10, "the quoted value is never closed with '"),
            ("marble \"(a-b)\"", 11, "a group holds events, not '-'"),
            ("marble \"-é-|\"", 10, "'é' is not marble notation (use - a-z 0-9 'text' ( ) | #)"),
        ])
    func badStrings(_ text: String, _ column: Int, _ reason: String) {
        let d = diagnose(text)
        #expect(d.map(\.message) == ["invalid marble string: " + reason], "\(text)")
        #expect(d.first?.location.column == column, "\(text)")
        #expect(d.first?.id.name == "invalid-marble")
    }

    @Test("expect marbles is checked the same way, and needs a string")
    func expectDiagnostics() {
        #expect(diagnose("just 1\nexpect marbles \"-a?\"").map(\.id.name) == ["invalid-marble"])
        #expect(diagnose("just 1\nexpect marbles 3").map(\.id.name) == ["expect-marbles-needs-string"])
        #expect(diagnose("just 1\nexpect marbles \"a|\" frame: 50ms").isEmpty)
    }

    @Test("the diff names each differing frame, for any value")
    func diff() {
        let lines = MarbleNotation.diff(expected: "-a-'10'-|", actual: "-a--'10'|", frame: 100_000_000)
        #expect(lines[0] == "expected -a-'10'-   |")
        #expect(lines[1] == "actual   -a--   '10'|")
        #expect(lines[2] == "            ^")
        #expect(lines[3] == "frame 3 (300ms): expected '10', got no event")
        #expect(lines[4] == "frame 4 (400ms): expected no event, got '10'")
        #expect(lines.count == 5)
    }

    @Test("the diff of two strings names only frames whose events differ")
    func diffOnlyDifferences() {
        let lines = MarbleNotation.diff(expected: "-a|", actual: "-a---|", frame: 100_000_000)
        #expect(
            lines.dropFirst(3) == [
                "frame 2 (200ms): expected finished, got no event", "frame 5 (500ms): expected nothing (the diagram had ended), got finished",
            ])
    }
}
