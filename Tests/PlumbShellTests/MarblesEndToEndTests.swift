import Foundation
import Testing

@Suite struct MarblesEndToEndTests {
    @Test("marble S | expect marbles S passes through plumb test, for groups, values, errors and idle runs")
    func roundTripThroughTest() throws {
        let strings = ["-a-(bc)-|", "--1--2--#", "-'10'-'200'-|", "(a|)", "a---------------------b|", "-(ab)-(cd)-|"]
        let script = strings.map { "marble \"\($0)\"\nexpect marbles \"\($0)\"\n" }.joined()
            + "marble \"-a-b-|\" frame: 50ms | delay 100ms\nexpect marbles \"- - - a - b - |\" frame: 50ms\n"
        let result = try PlumbBinary.run(["--clock", "virtual", "test", try PlumbBinary.script(script)])
        #expect(result.status == 0, "\(result)")
    }

    @Test("a failing expect marbles prints expected and actual aligned, a caret, and a sentence per frame")
    func diffOutput() throws {
        let script = try PlumbBinary.script("marble \"-a-b-|\" | map { $0 + $0 }\nexpect marbles \"-'aa'--'bb'|\"\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(result.status == 1, "\(result)")
        let all = result.stdout + result.stderr
        #expect(all.contains("expected marbles \"-'aa'--'bb'|\", got \"-'aa'-'bb'-|\""), "\(result)")
        #expect(all.contains("  expected -'aa'--   'bb'|"), "\(result)")
        #expect(all.contains("  actual   -'aa'-'bb'-   |"), "\(result)")
        #expect(all.contains("frame 3 (300ms): expected no event, got 'bb'"), "\(result)")
        #expect(all.contains("frame 4 (400ms): expected 'bb', got no event"), "\(result)")
    }
}
