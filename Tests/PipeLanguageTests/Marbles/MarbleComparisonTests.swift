import Testing
@testable import PipeLanguage

/// `expect marbles` compares values, not spellings, over any number of frames, with a message of
/// bounded size (the hunt found `'a'` refused against `a`, `'10'` passing for the String "10", a
/// 2.9 MB message for a 27-hour run, and `frame: 1ns` reporting an empty run).
@Suite("expect marbles compares values")
struct MarbleComparisonTests {
    static let frame: Int64 = 100_000_000
    typealias Events = [(time: Int64, token: MarbleNotation.Token)]

    static func events(_ marbles: String, frame: Int64 = frame) -> Events {
        var out: Events = []
        for (i, tokens) in ((try? MarbleNotation.parse(marbles).get()) ?? []).enumerated() {
            for t in tokens { out.append((Int64(i) * frame, t)) }
        }
        return out
    }

    @Test(
        "a quoted one-character value is the same value as its bare glyph",
        arguments: [
            ("-'a'-b-|", "-a-b-|"), ("('1'|)", "(1|)"), ("-'a''b'|", "-ab|"), ("-(a'2')-|", "-(a2)-|"),
        ])
    func sameValues(_ expected: String, _ run: String) {
        #expect(MarbleComparison(expected: expected, events: Self.events(run), frame: Self.frame).holds)
    }

    @Test("the Int 10 and the String \"10\" are different values, and the diff says only the kind differs")
    func kinds() {
        let c = MarbleComparison(expected: "('10'|)", events: [(0, .value(.string("10"))), (0, .finished)], frame: Self.frame)
        #expect(!c.holds)
        #expect(c.diff.last == "frame 0 (0ms): expected Int 10, got String \"10\" (only the kind differs)")
    }

    @Test("27 hours of 100 ms frames: the message elides the empty stretch and stays small")
    func longRun() {
        let ns: Int64 = 27 * 3_600_000_000_000
        let c = MarbleComparison(expected: "-|", events: [(ns, .value(.int(0))), (ns, .finished)], frame: Self.frame)
        #expect(!c.holds)
        #expect(c.actual == "--- … 971,994 frames with no event … ---(0|)")
        #expect((c.diff + [c.actual]).map(\.count).reduce(0, +) < 3_000)
    }

    @Test("frame: 1ns sees the events of a run at 100 ms frames")
    func tinyFrame() {
        let c = MarbleComparison(expected: "-a-b-|", events: Self.events("-a-b-|"), frame: 1)
        #expect(!c.holds)
        #expect(c.actual.contains("---a---") && c.actual.contains("---b---") && c.actual.hasSuffix("---|"))
        #expect(c.diff.contains("frame 1 (1ns): expected a, got no event"))
        #expect(MarbleComparison(expected: "-a-b-|", events: Self.events("-a-b-|", frame: 1), frame: 1).holds)
    }

    @Test("a difference still gets its caret and sentence")
    func difference() {
        let c = MarbleComparison(expected: "-a-'10'-|", events: Self.events("-a--'10'|"), frame: Self.frame)
        #expect(
            c.diff == [
                "expected -a-'10'-   |", "actual   -a--   '10'|", "            ^",
                "frame 3 (300ms): expected '10', got no event", "frame 4 (400ms): expected no event, got '10'",
            ])
    }

    @Test("frames with no event on either side are not differences, also past the expected diagram's end")
    func onlyRealDifferences() {
        let c = MarbleComparison(expected: "-a|", events: Self.events("-a---|"), frame: Self.frame)
        #expect(
            c.diff == [
                "expected -a|", "actual   -a---|", "           ^",
                "frame 2 (200ms): expected finished, got no event",
                "frame 5 (500ms): expected nothing (the diagram had ended), got finished",
            ])
    }

    @Test("a 3 s timer against \"-|\": two frames differ, the expected row is -|, the actual row its 30 frames")
    func timerAgainstShortDiagram() {
        let ns: Int64 = 3_000_000_000
        let c = MarbleComparison(expected: "-|", events: [(ns, .value(.int(0))), (ns, .finished)], frame: Self.frame)
        #expect(
            c.diff == [
                "expected -|", "actual   " + String(repeating: "-", count: 30) + "(0|)", "          ^",
                "frame 1 (100ms): expected finished, got no event",
                "frame 30 (3s): expected nothing (the diagram had ended), got (0|)",
            ])
    }

    @Test("an empty stretch is elided only when the elision is shorter than the frames")
    func elisionShortens() {
        #expect(MarbleComparison(expected: "-|", events: Self.events("a-------(b|)"), frame: Self.frame).actual == "a-------(b|)")
        let long = MarbleComparison(expected: "-|", events: Self.events("a" + String(repeating: "-", count: 60) + "(b|)"), frame: Self.frame)
        #expect(long.actual == "a--- … 54 frames with no event … ---(b|)")
    }

    @Test("after six sentences, the true number of frames that differ")
    func trueCounts() {
        let c = MarbleComparison(expected: "-|", events: Self.events("0123456789|"), frame: Self.frame)
        #expect(c.diff.count == 3 + 7)
        #expect(c.diff.last == "… and 5 more frames that differ")
        #expect(c.diff[3] == "frame 0 (0ms): expected no event, got 0")
    }

    @Test("trailing empty frames in the expected diagram are no difference")
    func trailingEmptyFrames() {
        #expect(MarbleComparison(expected: "-a--", events: Self.events("-a"), frame: Self.frame).holds)
    }
}
