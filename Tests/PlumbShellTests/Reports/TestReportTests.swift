import Foundation
import Testing

@testable import PlumbShell

/// `plumb test --report`: the pieces junitparser (Scripts/check-reports) does not see.
@Suite struct TestReportTests {
    @Test("XML text: markup characters as entities, control characters as pictures, line breaks kept only in content")
    func xmlEscaping() {
        #expect(TestReport.escaped("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(TestReport.escaped("bell\u{7}esc\u{1B}del\u{7F}") == "bell\u{2407}esc\u{241B}del\u{2421}")
        #expect(TestReport.escaped("1\n2") == "1&#10;2")
        #expect(TestReport.escaped("1\n2", content: true) == "1\n2")
    }

    @Test("TAP: the plan, a point per case, SKIP directives, the failure as a YAML block, # escaped")
    func tap() {
        let file = TestReport.File(
            file: "a.pipe",
            cases: [
                .init(line: 2, name: "line 2: expect values [1]"),
                .init(line: 3, name: "line 3: expect marbles \"-#\"", failure: "expected x\n  diff"),
                .init(line: 4, name: "line 4: expect finished", skipped: "not run"),
            ])
        #expect(
            TestReport.tap([file, TestReport.File(file: "b.pipe", error: "b.pipe:1: unknown operator")]) == """
                TAP version 13
                1..4
                ok 1 - a.pipe line 2: expect values [1]
                not ok 2 - a.pipe line 3: expect marbles "-\\#"
                  ---
                  message: |
                    expected x
                      diff
                  ...
                ok 3 - a.pipe line 4: expect finished # SKIP not run
                not ok 4 - b.pipe: the script
                  ---
                  message: |
                    b.pipe:1: unknown operator
                  ...

                """)
    }

    @Test("TAP on standard output replaces the PASS/FAIL lines; several files, each checked by a child, are all reported")
    func tapEndToEnd() throws {
        let folder = try PlumbBinary.folder([
            "a.pipe": "just 1\nexpect values [1]\n", "b.pipe": "just 2\nexpect values [3]\nexpect finished\n",
        ])
        let result = try PlumbBinary.run(["test", "--report", "tap", folder])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["TAP version 13", "1..3"], "\(result.stdout)")
        #expect(lines.contains("ok 1 - \(folder)/a.pipe line 2: expect values [1]"), "\(result.stdout)")
        #expect(lines.contains("not ok 2 - \(folder)/b.pipe line 2: expect values [3]"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok 3 - \(folder)/b.pipe line 3: expect finished # SKIP") }, "\(result.stdout)")
        #expect(!result.stdout.contains("PASS") && !result.stdout.contains("passed,"))
    }
}
