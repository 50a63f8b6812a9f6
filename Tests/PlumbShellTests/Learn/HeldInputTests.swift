import Foundation
import Testing

@testable import PlumbShell

/// The solutions' own hidden inputs (`# hidden input: PIPELINE`, 03's clicks and 13's sensor) are
/// drawn afresh on every check (`{{LOW...HIGH}}`), never a number the answer names: an answer that
/// names the held input's values, once a learner has seen them, fails (issue 40: they were fixed
/// text, `from 1...777`, `interval 30ms | take 12`).
@Suite struct HeldInputTests {
    @Test("a template's {{LOW...HIGH}} is drawn in its range, never a number the texts name; the rest is kept")
    func drawing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let drawn = HeldInput.drawn("from 1...{{776...778}} | take {{3...3}} | map { {{ }} }", avoiding: [777], using: &generator)
            #expect(drawn == "from 1...776 | take 3 | map { {{ }} }" || drawn == "from 1...778 | take 3 | map { {{ }} }", "\(drawn)")
        }
        // The first draw of a check goes past the numbers named inside the range.
        for _ in 0..<20 {
            let drawn = HeldInput.drawn("from 1...{{600...999}}", avoiding: [0, 1, 777], past: true, using: &generator)
            let count = Int(drawn.dropFirst("from 1...".count)) ?? 0
            #expect(count > 777 && count <= 999, "\(drawn)")
        }
        // A range with nothing else to draw gives what it has.
        #expect(HeldInput.drawn("take {{5...5}}", avoiding: [5], using: &generator) == "take 5")
        #expect(HeldInput.wholeNumbers(in: "$0 < 777 ? $0 + 1 : 777") == [0, 777, 0, 1, 777])
    }

    @Test("03: a count that stops at the held input's 777 clicks (its old fixed size) fails 3 checks in 3; the right answers pass")
    func scanHardCoded() throws {
        let text = try HiddenInputTests.answered("03-scan", "$0 < 777 ? $0 + 1 : 777")
        #expect(try HiddenInputTests.visible(text).status == 0, "the visible checks pass it (the hole)")
        for _ in 0..<3 {
            let result = try HiddenInputTests.learn("03-scan", text)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("on an input you cannot see, `from 1..."), "\(result)")
        }
        for right in ["$0 + 1", #"$1 == "c" ? $0 + 1 : $0"#] {
            for _ in 0..<3 {
                let result = try HiddenInputTests.learn("03-scan", try HiddenInputTests.answered("03-scan", right))
                #expect(result.status == 0, "\(right): \(result)")
            }
        }
    }

    @Test("13: the readings buffer 3 lets through on a held sensor once seen (30 ms × 12), by number, fail 3 checks in 3; buffer 3 passes")
    func demandHardCoded() throws {
        // Right on both visible runs (0…4; 0…4 and 7) and on the sensor the solution held before,
        // `interval 30ms | take 12` (buffer 3 gives 0…4, 7, 11 there), by listing those readings.
        let text = try HiddenInputTests.answered("13-demand", "filter { $0 < 5 || $0 == 7 || $0 == 11 } | buffer 10")
        #expect(try HiddenInputTests.visible(text).status == 0, "the visible checks pass it (the hole)")
        for _ in 0..<3 {
            let result = try HiddenInputTests.learn("13-demand", text)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("on an input you cannot see, `interval "), "\(result)")
        }
        for _ in 0..<3 {
            let result = try HiddenInputTests.learn("13-demand", try HiddenInputTests.answered("13-demand", "buffer 3"))
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a CRLF exercise is read by its lines: the right answer passes, a hard-coded one fails on the line it is on")
    func crlf() throws {
        let right = try HiddenInputTests.answered("03-scan", "$0 + 1").replacingOccurrences(of: "\n", with: "\r\n")
        let result = try HiddenInputTests.learn("03-scan", right)
        #expect(result.status == 0, "\(result)")
        let wrong = try HiddenInputTests.answered("03-scan", "$0 < 500 ? $0 + 1 : 500").replacingOccurrences(of: "\n", with: "\r\n")
        let failed = try HiddenInputTests.learn("03-scan", wrong)
        #expect(failed.status == 1, "\(failed)")
        // The first pipeline's line in the file: 19.
        #expect(failed.stdout.contains("03-scan.pipe:19: on an input you cannot see"), "\(failed)")
    }
}

/// Where `plumb learn` finds an exercise's solution: `solutions/` beside it (the repository),
/// `.solutions/` beside it (an install), or the installed workshop's `.solutions/` for an exercise
/// copied out of it, when its first text is the installed one's (issue 40: an install had none).
@Suite struct SolutionLookupTests {
    @Test("beside it, then hidden beside it, then the installed one's for the same exercise only")
    func lookup() throws {
        let repository = try PlumbBinary.folder(["03-scan.pipe": "shipped\n", "solutions/03-scan.pipe": "repository\n"])
        #expect(HiddenInputCheck.solution(forExerciseAt: "\(repository)/03-scan.pipe", template: nil, installed: { nil }) == "repository\n")
        let installed = try PlumbBinary.folder(["03-scan.pipe": "shipped\n", ".solutions/03-scan.pipe": "installed\n"])
        #expect(HiddenInputCheck.solution(forExerciseAt: "\(installed)/03-scan.pipe", template: nil, installed: { nil }) == "installed\n")
        let copied = try PlumbBinary.folder(["03-scan.pipe": "answered\n"])
        #expect(HiddenInputCheck.solution(forExerciseAt: "\(copied)/03-scan.pipe", template: "shipped\n", installed: { installed }) == "installed\n")
        // Another workshop's 03-scan is not the installed one: no solution.
        #expect(HiddenInputCheck.solution(forExerciseAt: "\(copied)/03-scan.pipe", template: "another\n", installed: { installed }) == nil)
        #expect(HiddenInputCheck.solution(forExerciseAt: "\(copied)/03-scan.pipe", template: nil, installed: { installed }) == nil)
    }

    @Test("plumb installed under a prefix: a hard-coded 03 copied out of its workshop fails on the hidden input; the right one passes")
    func installedBinary() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let root = HiddenInputTests.root
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let workshop = prefix.appendingPathComponent("share/plumb/workshop")
        try FileManager.default.createDirectory(at: workshop.appendingPathComponent(".solutions"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        // As Scripts/install lays it out: the binary, the exercise, its solution hidden beside it.
        try FileManager.default.copyItem(at: binary, to: prefix.appendingPathComponent("bin/plumb"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("03-scan.pipe"), to: workshop.appendingPathComponent("03-scan.pipe"))
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("solutions/03-scan.pipe"), to: workshop.appendingPathComponent(".solutions/03-scan.pipe"))
        let installed = prefix.appendingPathComponent("bin/plumb").path
        // The learner's folder: the exercise copied out, seen once as shipped, then answered.
        let mine = try PlumbBinary.folder(["03-scan.pipe": try String(contentsOf: workshop.appendingPathComponent("03-scan.pipe"), encoding: .utf8)])
        let first = try PlumbBinary.shell("cd '\(mine)' && '\(installed)' --clock virtual learn --once")
        #expect(first.stdout.contains("0/1 done"), "\(first)")
        try HiddenInputTests.answered("03-scan", "$0 < 500 ? $0 + 1 : 500").write(toFile: "\(mine)/03-scan.pipe", atomically: true, encoding: .utf8)
        let hard = try PlumbBinary.shell("cd '\(mine)' && '\(installed)' --clock virtual learn --once")
        #expect(hard.stdout.contains("on an input you cannot see, `from 1..."), "\(hard)")
        try HiddenInputTests.answered("03-scan", "$0 + 1").write(toFile: "\(mine)/03-scan.pipe", atomically: true, encoding: .utf8)
        let right = try PlumbBinary.shell("cd '\(mine)' && '\(installed)' --clock virtual learn --once")
        #expect(right.stdout.contains("All 1 exercises pass"), "\(right)")
    }
}
