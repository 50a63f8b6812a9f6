import Foundation
import PipeLanguage

/// `plumb test --report junit FILE.xml PATH…` and `--report tap`: the results of `plumb test` for
/// CI, a test case per `expect` line, grouped per file. JUnit XML (GitHub Actions, GitLab, Jenkins
/// read it) goes to FILE.xml beside the usual PASS/FAIL lines; TAP goes to standard output instead
/// of them.
enum TestReport {
    enum Format: Equatable {
        case junit(String)
        case tap
    }

    /// In a child `plumb` (one file of `plumb test DIR`): where it writes its file's report, as JSON.
    static let variable = "PLUMB_TEST_REPORT"

    /// One file's results.
    struct File: Codable, Equatable {
        /// One `expect` line: passed (no failure, not skipped), failed with its text (the marble
        /// diff too), or not run.
        struct Case: Codable, Equatable {
            var line: Int
            var name: String
            var failure: String?
            var skipped: String?
        }

        var file: String
        var cases: [Case] = []
        /// Why the file could not be checked at all (static errors, a crash, unreadable).
        var error: String?
    }

    /// A file's report from its text and what its run came to. Expect lines that did not run (after
    /// the first failure, `plumb test` stops) are skipped cases.
    static func file(_ file: String, text: String, report: RunReport, error: String?) -> File {
        let statements = Session(runtime: Runtime(clock: .virtual)).compile(ScriptLines(text).language, file: file).statements
        let expects = statements.filter(\.isExpectation)
        var cases: [File.Case] = []
        var checkedLines = Set<Int>()
        for checked in report.expectations {
            if checked.location.file == file {
                checkedLines.insert(checked.location.line)
                let source = expects.first { $0.location.line == checked.location.line }?.text ?? checked.text
                cases.append(.init(line: checked.location.line, name: "line \(checked.location.line): \(source)", failure: checked.failure))
            } else {
                // An expect of a `:load`ed file.
                let name = "\(checked.location.file):\(checked.location.line): \(checked.text)"
                cases.append(.init(line: checked.location.line, name: name, failure: checked.failure))
            }
        }
        let failedFirst = report.expectations.first { $0.failure != nil }
        let why =
            error != nil
            ? "not run: the script could not be checked"
            : failedFirst.map { "not run: plumb test stops at the first failed expect (line \($0.location.line))" } ?? "not run"
        for statement in expects where !checkedLines.contains(statement.location.line) {
            cases.append(.init(line: statement.location.line, name: "line \(statement.location.line): \(statement.text)", skipped: why))
        }
        cases.sort { $0.line < $1.line }
        if cases.isEmpty && error == nil {
            cases = [.init(line: 1, name: "the script runs (it has no expect lines)")]
        }
        return File(file: file, cases: cases, error: error)
    }

    // MARK: JUnit

    /// The counts JUnit keeps per suite.
    struct Counts {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0

        init() {}

        init(_ file: File) {
            let error = file.error == nil ? 0 : 1
            tests = file.cases.count + error
            failures = file.cases.filter { $0.failure != nil }.count
            errors = error
            skipped = file.cases.filter { $0.skipped != nil }.count
        }

        static func + (a: Counts, b: Counts) -> Counts {
            var sum = a
            sum.tests += b.tests
            sum.failures += b.failures
            sum.errors += b.errors
            sum.skipped += b.skipped
            return sum
        }

        var attributes: String { #"tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)""# }
    }

    static func junit(_ files: [File]) -> String {
        let totals = files.map(Counts.init).reduce(Counts(), +)
        var xml = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="plumb test" \#(totals.attributes)>"#,
        ]
        for file in files {
            let name = escaped(file.file)
            xml.append(#"  <testsuite name="\#(name)" \#(Counts(file).attributes)>"#)
            if let error = file.error {
                xml.append(#"    <testcase classname="\#(name)" name="the script" file="\#(name)">"#)
                xml.append(#"      <error message="\#(escaped(firstLine(error)))" type="plumb">\#(escaped(error, content: true))</error>"#)
                xml.append("    </testcase>")
            }
            for test in file.cases {
                let head = #"    <testcase classname="\#(name)" name="\#(escaped(test.name))" file="\#(name)" line="\#(test.line)""#
                if let failure = test.failure {
                    xml.append(head + ">")
                    xml.append(#"      <failure message="\#(escaped(firstLine(failure)))" type="expect">\#(escaped(failure, content: true))</failure>"#)
                    xml.append("    </testcase>")
                } else if let skipped = test.skipped {
                    xml += [head + ">", #"      <skipped message="\#(escaped(skipped))"/>"#, "    </testcase>"]
                } else {
                    xml.append(head + "/>")
                }
            }
            xml.append("  </testsuite>")
        }
        xml.append("</testsuites>")
        return xml.joined(separator: "\n") + "\n"
    }

    static func firstLine(_ text: String) -> String { text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? text }

    /// Text as an XML 1.0 attribute value (or, with `content`, character data, where line breaks
    /// stay as they are): markup characters as entities, a control character XML cannot hold as a
    /// picture, as the shell shows them (`TerminalText`).
    static func escaped(_ text: String, content: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += content ? "\n" : "&#10;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += TerminalText.escaped(String(scalar))
            case _ where (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: TAP

    /// TAP version 13: a test point per case (a file that could not be checked is one failing
    /// point), the failure's text as a YAML block under it.
    static func tap(_ files: [File]) -> String {
        var lines = ["TAP version 13"]
        var number = 0
        func point(_ ok: Bool, _ description: String, directive: String? = nil, detail: String? = nil) {
            number += 1
            let text = description.replacingOccurrences(of: "#", with: "\\#").replacingOccurrences(of: "\n", with: " ")
            lines.append("\(ok ? "ok" : "not ok") \(number) - \(text)" + (directive.map { " # \($0)" } ?? ""))
            if let detail {
                lines += ["  ---", "  message: |"] + detail.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 } + ["  ..."]
            }
        }
        for file in files {
            if let error = file.error { point(false, "\(file.file): the script", detail: error) }
            for test in file.cases {
                if let skipped = test.skipped {
                    point(true, "\(file.file) \(test.name)", directive: "SKIP " + skipped)
                } else {
                    point(test.failure == nil, "\(file.file) \(test.name)", detail: test.failure)
                }
            }
        }
        lines.insert("1..\(number)", at: 1)
        return lines.joined(separator: "\n") + "\n"
    }
}
