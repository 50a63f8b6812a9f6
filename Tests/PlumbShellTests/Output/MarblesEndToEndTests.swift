import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

@Suite struct MarblesEndToEndTests {
    @Test("marble S | expect marbles S passes through plumb test, for groups, values, errors and idle runs")
    func roundTripThroughTest() throws {
        let strings = ["-a-(bc)-|", "--1--2--#", "-'10'-'200'-|", "(a|)", "a---------------------b|", "-(ab)-(cd)-|"]
        let script =
            strings.map { "marble \"\($0)\"\nexpect marbles \"\($0)\"\n" }.joined()
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

@Suite struct DiagramEndToEndTests {
    @Test("plumb run --marbles prints one lane per stage after the run, exactly")
    func diagramAfterRun() throws {
        let script = try PlumbBinary.script("interval 100ms | take 4 | map { $0 * 2 } | filter { $0 > 2 }\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", script], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                """
                                        0   200 400 ms
                [0] interval 100ms      ^-0-1-2-(3!)
                [1] take 4              ^-0-1-2-(3|)
                [2] map { $0 * 2 }      ^-0-2-4-(6|)
                [3] filter { $0 > 2 }   ^-----4-(6|)
                                        1 column = 50 ms; a group ( ) is one instant
                """), "\(result.stdout)")
    }

    @Test("retry draws each attempt of the stages above it; failures go on a legend line")
    func retryAttempts() throws {
        let script = try PlumbBinary.script("just 5 | asyncMap flaky 2 | retry 3\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", script])
        #expect(result.status == 0, "\(result)")
        for line in ["├ #1", "├ #2", "└ #3", "#: failed[E506]: flaky failure 1 of 2"] {
            #expect(result.stdout.contains(line), "\(line)\n\(result.stdout)")
        }
    }

    @Test("without --marbles, plumb run prints no diagram; the REPL's :marbles off turns it off")
    func offByDefaultInScripts() throws {
        let script = try PlumbBinary.script("just 1 | map { $0 + 1 }\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(!result.stdout.contains("[0] just 1"), "\(result)")
        let piped = try PlumbBinary.run(["--clock", "virtual"], input: ":marbles on\njust 1\n:marbles\n:marbles off\njust 2\n:marbles\n")
        // A diagram after `just 1`, again on request; none for `just 2`, which was not recorded.
        #expect(piped.stdout.components(separatedBy: "[0] just 1").count == 3, "\(piped)")
        #expect(!piped.stdout.contains("[0] just 2"), "\(piped)")
        #expect(piped.stderr.contains("the last run was not recorded"), "\(piped)")
    }

    /// Writes the SVG of a run with nested lanes and a caught failure; its path.
    private static func exportedSVG() throws -> String {
        let script = try PlumbBinary.script("from [1, 2] | flatMap { marble \"-a-(bc)|\" }\nfail \"boom\" | catch { just \"x\" }\n")
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-\(UUID().uuidString).svg").path
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", svg, script])
        #expect(result.status == 0, "\(result)")
        return svg
    }

    @Test("plumb run --svg writes a standalone SVG with the stages' labels")
    func svgExport() throws {
        let text = try String(contentsOfFile: try Self.exportedSVG(), encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        for label in ["from [1, 2]", "inner 1", "fail &quot;boom&quot;", "catch { just &quot;x&quot; }"] {
            #expect(text.contains(label), "\(label)")
        }
    }

    @Test(
        "plumb run --svg's SVG renders (rsvg-convert)",
        .enabled(if: DiagramPicturesTests.converter != nil, "rsvg-convert is not installed (Debian librsvg2-bin)"))
    func svgRenders() throws {
        let svg = try Self.exportedSVG()
        let converter = try #require(DiagramPicturesTests.converter)
        let png = svg + ".png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter)
        process.arguments = ["-o", png, svg]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect((try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0 > 1000)
    }

    /// Entries whose example fails on purpose: `fail` shows a failure, `todo` is a workshop hole.
    static let failsOnPurpose: Set<String> = ["fail", "todo"]

    /// An entry's example as a script that subscribes once: a binding's example (`let s = subject`)
    /// gets `s | take 0` after it, so it draws a diagram too (the script hover and the reference run).
    static func subscribedExample(_ entry: CatalogEntry) -> String { ExampleRun.script(for: entry) }

    @Test("every catalog entry's example draws its diagram: exit 0, one diagram per entry, nothing on stderr")
    func everyExampleDraws() throws {
        // A subject's and a channel's examples send into a job, drawn by `:marbles 1` (ExampleRun), not after a run.
        let entries = Catalog.entries.filter {
            $0.kind != .terminal && !Self.failsOnPurpose.contains($0.name) && $0.name != "subject" && $0.name != "channel"
        }
        #expect(entries.count >= 50, "\(entries.count) entries")
        let script = entries.map(Self.subscribedExample).joined()
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", try PlumbBinary.script(script)])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "1 column = ").count - 1 == entries.count, "\(result.stdout.suffix(2000))")
    }

    @Test("an entry whose example fails on purpose draws its failure: exit 1, one diagram ending in #", arguments: Array(failsOnPurpose).sorted())
    func failingExampleDraws(_ name: String) throws {
        let entry = try #require(Catalog.entry(named: name))
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", try PlumbBinary.script(Self.subscribedExample(entry))])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.components(separatedBy: "1 column = ").count - 1 == 1, "\(result)")
        #expect(result.stdout.contains("^#"), "\(result)")
    }
}

@Suite struct SwiftCommandEndToEndTests {
    @Test(":swift prints a pipeline as Swift Combine code; plumb swift a script's pipelines; --program a main.swift")
    func swiftCode() throws {
        let repl = try PlumbBinary.run([], input: ":swift from [1, 2, 3] | map { $0 * 10 }\n")
        #expect(repl.stdout.contains("import Reactive\n\nlet cancellable = [1, 2, 3].publisher.map { $0 * 10 }\n    .sink { print($0) }"), "\(repl)")
        let script = try PlumbBinary.script("from [1, 2] | filter { $0 > 1 }\nlet s = subject\ns.send 1\n")
        let code = try PlumbBinary.run(["swift", script])
        #expect(code.status == 0, "\(code)")
        #expect(code.stdout.contains("// 1: from [1, 2] | filter { $0 > 1 }"), "\(code)")
        #expect(!code.stdout.contains("s.send"), "\(code)")
        let program = try PlumbBinary.run(["swift", "--program", script])
        #expect(program.status == 0 && program.stdout.contains("import Reactive"), "\(program)")
        let bad = try PlumbBinary.run(["swift", try PlumbBinary.script("just 1 | retyr 3\n")])
        #expect(bad.status == 65 && bad.stderr.contains("unknown operator 'retyr'"), "\(bad)")
    }
}

@Suite(.serialized) struct LiveDiagramTests {
    @Test(
        "on a terminal the diagram grows while the pipeline runs, the prompt comes back, Ctrl-C leaves !",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func live() throws {
        let binary = try #require(PlumbBinary.url)
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "\(pane.screen)")
        try pane.type("interval 100ms | take 5 | map { $0 * 2 }")
        try pane.send("Enter")
        // Drawn before the run ends: the map lane is there while `finished` is not.
        #expect(pane.wait(seconds: 5) { $0.screen.contains("[2] map { $0 * 2 }") && !$0.screen.contains("finished") }, "\(pane.screen)")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("finished") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.screen.contains("(8|)"), "\(pane.screen)")
        // Drawn once at the end, not once per redraw.
        #expect(pane.screen.components(separatedBy: "[2] map { $0 * 2 }").count == 2, "\(pane.screen)")
        try pane.type("interval 100ms | map { $0 * 2 }")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("value 4") }, "\(pane.screen)")
        try pane.send("C-c")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        let lanes = pane.screen.split(separator: "\n").filter { $0.hasPrefix("[0] interval 100ms") }
        #expect(lanes.last?.hasSuffix("!") == true || lanes.last?.hasSuffix("!)") == true, "\(pane.screen)")
    }
}
