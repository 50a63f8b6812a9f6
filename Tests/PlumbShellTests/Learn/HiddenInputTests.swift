import Foundation
import Testing

@testable import PlumbShell

/// `plumb learn` runs an answer on an input the learner cannot see (issue 40): the exercise's
/// pipelines with other letters in their strings, drawn at random each check and never in the
/// exercise, against the shipped solution. An answer that names the sample's keys passes every
/// visible check (both inputs are in the file) and fails here, whatever letters were drawn.
@Suite struct HiddenInputTests {
    static let root = PlumbBinary.packageRoot.appendingPathComponent("Examples/workshop")

    /// The shipped exercise with `answer` in place of every `todo` (as `Scripts/check-workshop` puts it).
    static func answered(_ name: String, _ answer: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("\(name).pipe"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") ? String(line) : line.replacingOccurrences(of: "todo", with: answer)
        }.joined(separator: "\n")
    }

    /// A folder holding one exercise, answered, and its solution beside it.
    static func learn(_ name: String, _ text: String) throws -> PlumbResult {
        let solution = try String(contentsOf: root.appendingPathComponent("solutions/\(name).pipe"), encoding: .utf8)
        let shipped = try String(contentsOf: root.appendingPathComponent("\(name).pipe"), encoding: .utf8)
        // As `plumb learn` keeps it the first time it sees the exercise: the shipped copy.
        let folder = try PlumbBinary.folder(["\(name).pipe": text, "solutions/\(name).pipe": solution, ".\(name).pipe.pristine": shipped])
        return try PlumbBinary.run(["learn", "--once", folder])
    }

    static func visible(_ text: String) throws -> PlumbResult {
        try PlumbBinary.run(["--clock", "virtual", "test", try PlumbBinary.script(text)])
    }

    @Test("07: an answer that names the overtaken keys of both visible inputs passes plumb test, and fails learn on other keys")
    func switchToLatestHardCoded() throws {
        let name = "07-switchtolatest"
        let text = try Self.answered(name, #"filter { $0 != "h" && $0 != "a" && $0 != "c" } | flatMap"#)
        let visible = try Self.visible(text)
        #expect(visible.status == 0, "the visible checks pass it (the hole): \(visible)")
        // Three times: other letters each time, failing each time.
        for _ in 0..<3 {
            let result = try Self.learn(name, text)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("0/1 done"), "\(result)")
            #expect(result.stdout.contains("on an input you cannot see, `marble \""), "\(result)")
            #expect(result.stdout.contains("Does it name the sample's values instead of doing what the task asks?"), "\(result)")
        }
    }

    @Test("07, 06, 10, 04: right answers pass on the hidden input too")
    func rightAnswersPass() throws {
        for (name, answer) in [
            ("07-switchtolatest", "switchToLatest"), ("07-switchtolatest", "removeDuplicates | switchToLatest"),
            ("06-flatmap", "flatMap maxPublishers: 1 { just $0 | asyncMap delay 100 }"), ("10-time", "debounce 300ms"),
            ("04-merge", "merge right"), ("08-errors", #"replaceError "offline""#),
        ] {
            let result = try Self.learn(name, try Self.answered(name, answer))
            #expect(result.status == 0, "\(name): \(answer): \(result)")
        }
    }

    @Test("10: the surviving keys of both visible inputs by name, each sent 300 ms later, fail on other keys")
    func timeHardCoded() throws {
        let text = try Self.answered(
            "10-time", #"filter { $0 == "i" || $0 == "t" || $0 == "b" || $0 == "e" } | flatMap { just $0 | delay 300ms }"#)
        let visible = try Self.visible(text)
        #expect(visible.status == 0, "the visible checks pass it (the hole): \(visible)")
        let result = try Self.learn("10-time", text)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("on an input you cannot see"), "\(result)")
    }

    @Test("changing an expect line, or a pipeline's input, fails and says to keep the exercise as given")
    func exerciseKeptAsGiven() throws {
        let name = "07-switchtolatest"
        let right = try Self.answered(name, "switchToLatest")
        let changedExpect = right.replacingOccurrences(of: #"expect values ["b", "d"]"#, with: #"expect values ["a", "b", "c", "d"]"#)
            .replacingOccurrences(of: "switchToLatest {", with: "flatMap {")
            .replacingOccurrences(of: #"expect marbles "----b------d-|""#, with: "expect finished")
            .replacingOccurrences(of: #"expect marbles "----e-----y|""#, with: "expect finished")
            .replacingOccurrences(of: #"expect values ["e", "y"]"#, with: #"expect values ["h", "e", "y"]"#)
        let visible = try Self.visible(changedExpect)
        #expect(visible.status == 0, "\(visible)")
        let result = try Self.learn(name, changedExpect)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("this expect line was changed: keep the exercise's expect lines as they are"), "\(result)")
        // A line of its own added: the lines no longer pair with the exercise's.
        let added = try Self.learn(name, right + "\njust 1\n")
        #expect(added.status == 1, "\(added)")
        #expect(added.stdout.contains("write each answer in place of its todo, on its line"), "\(added)")
    }

    @Test("the shared part of a line is the input; a string the answer changed is the answer's")
    func linePairs() {
        let pair = LinePair(
            learner: #"marble "-he-----y--|" | filter { $0 != "h" } | flatMap { just $0 | asyncMap delay 200 }"#,
            solution: #"marble "-he-----y--|" | switchToLatest { just $0 | asyncMap delay 200 }"#)
        #expect(pair.changeableLetters.sorted() == ["e", "h", "y"])
        #expect(
            pair.learnerText(HiddenValues(letters: ["h": "q", "e": "r", "y": "s"]))
                == #"marble "-qr-----s--|" | filter { $0 != "h" } | flatMap { just $0 | asyncMap delay 200 }"#)
        // The two lines part inside a string: the whole string is the answer's, unchanged.
        let inside = LinePair(learner: #"just "ab" | map { $0 }"#, solution: #"just "ac" | map { $0 }"#)
        #expect(inside.changeableLetters.isEmpty)
        #expect(inside.learnerText(HiddenValues(letters: ["a": "z", "b": "y"])) == #"just "ab" | map { $0 }"#)
        // Letters in strings, not after an escape; numbers of a from list and of a marble's '42'.
        #expect(HiddenValues.letters(in: #"from ["-r|", "x"] | map { "\"q\n" }"#) == ["r", "x", "q"])
        #expect(HiddenValues.numbers(in: #"from [12, -7, 1.5] | merge (marble "-'42'-1-|") | take 3"#) == [12, -7, 42])
        #expect(HiddenValues.numbers(in: "from 1...2000 | map { [1, 2] }").isEmpty)
        #expect(
            HiddenValues(numbers: [12: 30, -7: 5, 42: 9]).rewrite(#"from [12, -7] | merge (marble "-'42'-|") | take 12"#)
                == #"from [30, 5] | merge (marble "-'9'-|") | take 12"#)
    }

    @Test("01: a table of the first sample's prices in one place and the right closure in the other passes plumb test, and fails learn")
    func sameAnswerEverywhere() throws {
        let name = "01-map"
        let shipped = try String(contentsOf: Self.root.appendingPathComponent("\(name).pipe"), encoding: .utf8)
        var lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { !$0.hasPrefix("#") && $0.contains("todo") })
        lines[first] = lines[first].replacingOccurrences(of: "todo", with: "$0 == 100 ? 120 : ($0 == 250 ? 300 : ($0 == 999 ? 1198 : 6))")
        let text = lines.joined(separator: "\n").replacingOccurrences(of: "map { todo } | reduce", with: "map { $0 * 120 / 100 } | reduce")
        let visible = try Self.visible(text)
        #expect(visible.status == 0, "the visible checks pass it (the hole): \(visible)")
        let result = try Self.learn(name, text)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("the task asks for the same answer in every place"), "\(result)")
        // The same right closure written another way in both places passes.
        let right = try Self.learn(name, try Self.answered(name, "$0 + $0 / 5"))
        #expect(right.status == 0, "\(right)")
    }

    @Test("09: one retry count for server then down; only the smallest that gets ok passes (2), more asks server again")
    func retryOneCount() throws {
        let name = "09-retry"
        for (answer, passes) in [("2", true), ("3", false), ("1", false), ("100", false), ("5 | take 1", false), (#"0 | replaceError "ok""#, false)] {
            let result = try Self.learn(name, try Self.answered(name, answer))
            #expect((result.status == 0) == passes, "retry \(answer): \(result)")
        }
        let three = try Self.visible(try Self.answered(name, "3"))
        #expect(three.stdout.contains(#"expected values ["ok"], got values ["ok", "ok"]"#), "\(three)")
    }

    @Test("the room's check (plumb serve's worker) runs the hidden input too: the hard-coded 07 fails there, the right one passes")
    func room() throws {
        func check(_ answer: String) throws -> PlumbResult {
            let text = try Self.answered("07-switchtolatest", answer)
            // What the room's editor holds: the code after the lesson.
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.isEmpty || $0.hasPrefix("#") }.joined(separator: "\n")
            // Its output into a pipe, as the server reads it (the worker may write no file).
            return try PlumbBinary.shell(
                #"PLUMB_SERVE_WORKER=check PLUMB_SERVE_NAME=07-switchtolatest.pipe PLUMB_SERVE_WORKSHOP="$W" "$PLUMB" | cat"#
                    .replacingOccurrences(of: "$W", with: Self.root.path), input: code)
        }
        let wrong = try check(#"filter { $0 != "h" && $0 != "a" && $0 != "c" } | flatMap"#)
        #expect(wrong.stdout.contains(#""passed":false"#) && wrong.stdout.contains("on an input you cannot see"), "\(wrong)")
        let right = try check("switchToLatest")
        #expect(right.stdout.contains(#""passed":true"#), "\(right)")
    }

    @Test("02: a bound read off the sample (`<= 1000`, its largest reading) passes plumb test and fails learn: a hidden reading lies past it")
    func filterBoundFromSample() throws {
        let text = try Self.answered("02-filter", "$0 >= 51 && $0 <= 1000")
        let visible = try Self.visible(text)
        #expect(visible.status == 0, "the visible checks pass it (the hole): \(visible)")
        for _ in 0..<3 {
            let result = try Self.learn("02-filter", text)
            #expect(result.status == 1 && result.stdout.contains("on an input you cannot see, `from ["), "\(result)")
        }
        #expect(try Self.learn("02-filter", try Self.answered("02-filter", "!($0 <= 50)")).status == 0)
    }

    @Test("04, 05: an answer that drops repeated readings passes plumb test (the samples never repeat) and fails learn, whose input repeats them")
    func repeatsDropped() throws {
        for (name, wrong, right) in [
            ("04-merge", "merge (right) | removeDuplicates", "merge (right)"),
            ("05-combining", "combineLatest (ages) | removeDuplicates", "combineLatest (ages)"),
        ] {
            let text = try Self.answered(name, wrong)
            #expect(try Self.visible(text).status == 0, "\(name): the visible checks pass it (the hole)")
            let result = try Self.learn(name, text)
            #expect(result.status == 1 && result.stdout.contains("on an input you cannot see"), "\(result)")
            #expect(try Self.learn(name, try Self.answered(name, right)).status == 0, "\(name): \(right)")
        }
    }

    @Test("13: the readings both visible runs drop, filtered by number, pass plumb test and fail learn on the sensor the solution holds")
    func demandHeldInput() throws {
        let text = try Self.answered("13-demand", "filter { $0 != 5 && $0 != 6 } | buffer 10")
        #expect(try Self.visible(text).status == 0, "the visible checks pass it (the hole)")
        let result = try Self.learn("13-demand", text)
        #expect(result.status == 1 && result.stdout.contains("on an input you cannot see, `interval "), "\(result)")
        #expect(try Self.learn("13-demand", try Self.answered("13-demand", "buffer 3")).status == 0)
    }
}

/// A lesson's claim written as `#   PIPELINE   v1, v2, v3` (06: maxPublishers with a source that
/// waits for demand and with a timer that cannot) is what plumb prints for that pipeline. Combine
/// fact: flatMap(maxPublishers:) requests that many values upstream (Apple's flatMap(maxPublishers:_:)
/// documentation), and a Timer publisher drops what finds no demand.
@Suite struct LessonClaimsTests {
    @Test("06's two maxPublishers lines print the values the lesson gives beside them: 0, 1, 2 and 0, 3, 6")
    func flatMapLesson() throws {
        let text = try String(contentsOf: HiddenInputTests.root.appendingPathComponent("06-flatmap.pipe"), encoding: .utf8)
        let claims = text.split(separator: "\n").compactMap { line -> (pipeline: String, values: String)? in
            guard line.hasPrefix("#   "), line.contains("maxPublishers: 1 {"), let close = line.lastIndex(of: "}") else { return nil }
            let values = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard !values.isEmpty else { return nil }
            return (String(line[line.index(line.startIndex, offsetBy: 4)...close]), values)
        }
        #expect(claims.map(\.values) == ["0, 1, 2", "0, 3, 6"], "\(claims)")
        for claim in claims {
            let script = try PlumbBinary.script(claim.pipeline + "\nexpect values [\(claim.values)]\n")
            let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
            #expect(result.status == 0, "\(claim.pipeline): \(result)")
        }
    }
}
