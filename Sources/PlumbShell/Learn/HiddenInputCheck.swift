import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// An exercise's answer checked on an input the learner cannot see: the exercise's own pipelines
/// with every letter of their strings (a marble's keys, a `from`'s names) changed to letters that
/// appear nowhere in the exercise, drawn at random on every check, run once with the learner's
/// answer and once with the shipped solution's (`solutions/NAME.pipe` beside the exercise). The
/// two must give the same values at the same times and end alike. An answer that names the
/// sample's values (`filter { $0 != "h" }`) instead of doing what the task says passes the
/// visible checks and fails here, whatever letters were drawn.
///
/// A solution's `# hidden input keeps "c"` line keeps letters the task gives a meaning (the
/// clicks of 03 are "c"), so an answer that tests for them is not wrong on the hidden input; its
/// `# hidden input repeats keys` line makes one draw give every key the same letter (readings
/// that repeat), so an answer that drops repeats is seen to; its `# hidden input: PIPELINE` lines
/// are inputs of their own, run with each answer in place of the pipeline's `todo`, each
/// `{{LOW...HIGH}}` in them drawn anew every time (`HeldInput`).
///
/// It also holds the learner to the exercise as given: the `expect` lines and the pipelines stay
/// as they are (one answer in place of each `todo`), or a check could be passed by changing what
/// it checks.
///
/// ```swift
/// let hidden = HiddenInputCheck(learner: text, solution: solved, options: options, template: shipped)
/// hidden.status()      // nil: the answer does what the solution does; else .failed(line:message:)
/// ```
struct HiddenInputCheck {
    /// The learner's text, as checked.
    let learner: String
    /// The shipped solution of the same exercise.
    let solution: String
    /// The options of the visible check (the virtual clock).
    let options: ShellOptions
    /// The exercise as shipped, with its `todo`s (the copy `plumb learn` keeps), when there is one.
    var template: String? = nil

    /// The solution of the exercise at `path`: `solutions/NAME.pipe` in the exercise's folder (the
    /// repository's), `.solutions/NAME.pipe` there (an installed workshop's), or, for an exercise
    /// copied out of the installed workshop, the installed one's `.solutions/NAME.pipe` when the
    /// exercise as first seen (`template`) is the installed `NAME.pipe`: another workshop's
    /// exercise of the same name is not held to it.
    /// `installed` is asked only when nothing is beside the exercise (finding the binary's folder
    /// costs the room's worker memory it is held to).
    static func solution(
        forExerciseAt path: String, template: String?, installed: () -> String? = { WorkshopFolder.here.installedFolder }
    ) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent()
        for hidden in ["solutions", WorkshopFolder.installedSolutions] {
            if let solved = try? String(contentsOf: folder.appendingPathComponent(hidden).appendingPathComponent(name), encoding: .utf8) {
                return solved
            }
        }
        guard let template, let installed = installed() else { return nil }
        let workshop = URL(fileURLWithPath: installed)
        guard let shipped = try? String(contentsOf: workshop.appendingPathComponent(name), encoding: .utf8), shipped == template else { return nil }
        return try? String(
            contentsOf: workshop.appendingPathComponent(WorkshopFolder.installedSolutions).appendingPathComponent(name), encoding: .utf8)
    }

    /// A code line: its number in the text (from 1) and its text, trimmed.
    struct Line: Equatable {
        let number: Int
        let text: String
        var isExpect: Bool { text == "expect" || text.hasPrefix("expect ") }
    }

    static func codeLines(_ text: String) -> [Line] {
        // By the project's lines (a `\r\n` is one Character to Swift's `split`, so a CRLF file
        // would be one line); a line's `\r` is not part of its text.
        LineIndex.lines(of: text).enumerated().compactMap { index, line in
            let trimmed = LineIndex.content(of: line).trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : Line(number: index + 1, text: trimmed)
        }
    }

    /// nil when the answer does on the hidden input what the solution does (or the exercise has
    /// no strings to change); otherwise why not.
    func status() -> ExerciseStatus? {
        var generator = SystemRandomNumberGenerator()
        return status(using: &generator)
    }

    func status(using generator: inout some RandomNumberGenerator) -> ExerciseStatus? {
        let mine = Self.codeLines(learner)
        let solved = Self.codeLines(solution)
        let (myExpects, solvedExpects) = (mine.filter(\.isExpect), solved.filter(\.isExpect))
        let changed = zip(myExpects, solvedExpects).first { $0.text != $1.text }?.0 ?? myExpects.dropFirst(solvedExpects.count).first
        if let changed {
            return .failed(
                line: changed.number,
                message: "this expect line was changed: keep the exercise's expect lines as they are (`plumb learn --reset FILE` restores the exercise)")
        }
        if myExpects.count < solvedExpects.count {
            return .failed(
                line: myExpects.last?.number ?? 1,
                message: "an expect line was removed: keep the exercise's expect lines as they are (`plumb learn --reset FILE` restores the exercise)"
            )
        }
        let (myCode, solvedCode) = (mine.filter { !$0.isExpect }, solved.filter { !$0.isExpect })
        guard myCode.count == solvedCode.count else {
            return .failed(
                line: myCode.dropFirst(min(myCode.count, solvedCode.count)).first?.number ?? myCode.last?.number ?? 1,
                message:
                    "the exercise has \(solvedCode.count) lines of pipelines and bindings, this text \(myCode.count): write each answer in place of its todo, on its line"
            )
        }
        if let template, let different = Self.differentAnswers(template: Self.codeLines(template), learner: myCode, solution: solvedCode) {
            return different
        }
        if let template, let failure = heldInputs(template: Self.codeLines(template), myCode, solvedCode, using: &generator) { return failure }
        // What may change: the strings' letters and the numbers of a `from [...]` or a marble's
        // `'42'`, outside the answers. What the new values must avoid: every one in either text.
        let pairs = zip(myCode, solvedCode).map { LinePair(learner: $0.text, solution: $1.text) }
        let everything = (mine + solved).map(\.text)
        let usedLetters = Set(everything.flatMap { HiddenValues.letters(in: $0) })
        let usedNumbers = Set(everything.flatMap { HiddenValues.numbers(in: $0) })
        let keys = Set(pairs.flatMap(\.changeableLetters)).subtracting(Self.keptLetters(solution)).sorted()
        let numbers = Set(pairs.flatMap(\.changeableNumbers)).sorted()
        let freshLetters = Set("abcdefghijklmnopqrstuvwxyz").subtracting(usedLetters)
        guard (!keys.isEmpty && freshLetters.count >= keys.count) || !numbers.isEmpty else { return nil }
        // Three draws: a bound taken from the sample's numbers (`$0 <= 1000`) meets a number past
        // it in one of them almost always; other letters fail a table of keys in every one.
        // Where the solution says readings may repeat (`# hidden input repeats keys`), the last
        // draw gives every key one letter, so an answer that drops repeats (`removeDuplicates`)
        // shows it.
        let repeats = Self.commentLines(solution).contains { $0.hasPrefix("# hidden input repeats keys") }
        for round in 0..<3 {
            var values = HiddenValues()
            if freshLetters.count >= keys.count {
                let letters = Array(freshLetters).shuffled(using: &generator)
                values.letters =
                    repeats && round == 2
                    ? Dictionary(uniqueKeysWithValues: keys.map { ($0, letters[0]) })
                    : Dictionary(uniqueKeysWithValues: zip(keys, letters))
            }
            values.numbers = HiddenValues.drawNumbers(for: numbers, avoiding: usedNumbers, using: &generator)
            if let failure = compare(pairs, myCode, values) { return failure }
        }
        return nil
    }

    /// The solution's `# hidden input: PIPELINE` lines, inputs the exercise never shows (13's
    /// sensor with more readings, where the file has no strings or lists to change): each run with
    /// the learner's answer and with the solution's in place of its `todo`, after the exercise's
    /// bindings, three times, with each `{{LOW...HIGH}}` in it drawn afresh every time (a count,
    /// a period), never a number either text names: an answer that names the held input's
    /// values, once seen, is not right on the next draw. nil when they agree, or the answers
    /// cannot be told (no shipped copy with `todo`).
    private func heldInputs(
        template: [Line], _ myCode: [Line], _ solvedCode: [Line], using generator: inout some RandomNumberGenerator
    ) -> ExerciseStatus? {
        let held = Self.commentLines(solution).filter { $0.hasPrefix("# hidden input:") }.map {
            String($0.dropFirst("# hidden input:".count)).trimmingCharacters(in: .whitespaces)
        }
        let code = template.filter { !$0.isExpect }
        guard !held.isEmpty, code.count == myCode.count, code.count == solvedCode.count,
            let index = code.firstIndex(where: { TodoPlace($0.text) != nil }), let place = TodoPlace(code[index].text),
            let mine = place.answer(in: myCode[index].text), let right = place.answer(in: solvedCode[index].text)
        else { return nil }
        let myBindings = myCode.map(\.text).filter { $0.hasPrefix("let ") }
        let solvedBindings = solvedCode.map(\.text).filter { $0.hasPrefix("let ") }
        let named = Set((myCode + solvedCode).flatMap { HeldInput.wholeNumbers(in: $0.text) })
        // The first draw goes past the numbers the answers name (a count that stops at one of
        // them meets more); the others anywhere in their ranges.
        for round in 0..<3 {
            for template in held {
                let pipeline = HeldInput.drawn(template, avoiding: named, past: round == 0, using: &generator)
                guard let hole = TodoPlace(pipeline) else { continue }
                let myPipeline = hole.before + mine + hole.after
                let myRuns = Self.outputs(of: (myBindings + [myPipeline]).joined(separator: "\n") + "\n", options: options)
                guard
                    let solvedRun = Self.outputs(of: (solvedBindings + [hole.before + right + hole.after]).joined(separator: "\n") + "\n", options: options)?
                        .last
                else { continue }
                let myEvents = myRuns?.last?.events ?? []
                if myEvents != solvedRun.events {
                    return .failed(
                        line: myCode[index].number,
                        message:
                            "on an input you cannot see, `\(myPipeline)`, this answer gives \(Self.describe(myEvents)); the task's answer gives \(Self.describe(solvedRun.events)). Does it name the sample's values instead of doing what the task asks?"
                    )
                }
            }
        }
        return nil
    }

    /// The learner's and the solution's pipelines on the hidden values: nil when they agree.
    private func compare(_ pairs: [LinePair], _ myCode: [Line], _ values: HiddenValues) -> ExerciseStatus? {
        let myHidden = pairs.map { $0.learnerText(values) }
        let solvedHidden = pairs.map { $0.solutionText(values) }
        let myRuns = Self.outputs(of: myHidden.joined(separator: "\n") + "\n", options: options)
        let solvedRuns = Self.outputs(of: solvedHidden.joined(separator: "\n") + "\n", options: options)
        guard let solvedRuns else { return nil }
        guard let myRuns, myRuns.count == solvedRuns.count else {
            let line = zip(myCode, pairs).first { $1.learner != $1.solution }?.0.number ?? 1
            return .failed(line: line, message: "on an input you cannot see (other values), this answer does not run as the task's answer does")
        }
        for ((myRun, solvedRun), index) in zip(zip(myRuns, solvedRuns), myRuns.indices) where myRun.events != solvedRun.events {
            let lineIndex = myHidden.firstIndex(of: myRun.title) ?? pairs.firstIndex { $0.learner != $0.solution } ?? index
            return .failed(
                line: myCode[min(lineIndex, myCode.count - 1)].number,
                message:
                    "on an input you cannot see, `\(myHidden[min(lineIndex, myHidden.count - 1)])`, this answer gives \(Self.describe(myRun.events)); the task's answer gives \(Self.describe(solvedRun.events)). Does it name the sample's values instead of doing what the task asks?"
            )
        }
        return nil
    }

    /// Letters the task gives a meaning ("each click arrives as the text "c""), which the hidden
    /// input keeps: those in the strings of the solution's `# hidden input keeps "c"` lines.
    static func keptLetters(_ solution: String) -> Set<Character> {
        Set(
            commentLines(solution).filter { $0.hasPrefix("# hidden input keeps") }.flatMap { HiddenValues.letters(in: $0) })
    }

    /// Every line of `text` trimmed (without a CRLF line's `\r`), for the solution's `#` lines.
    static func commentLines(_ text: String) -> [String] {
        LineIndex.lines(of: text).map { LineIndex.content(of: $0).trimmingCharacters(in: .whitespaces) }
    }

    /// Where the solution writes one answer in every `todo` ("write the same closure in both
    /// places") and the learner did not: the first place that differs. nil when the answers agree,
    /// or the lines do not keep the text around their `todo` (then the other checks speak).
    static func differentAnswers(template: [Line], learner: [Line], solution: [Line]) -> ExerciseStatus? {
        let code = template.filter { !$0.isExpect }
        guard code.count == learner.count, code.count == solution.count else { return nil }
        var mine: [(line: Int, answer: String)] = []
        var solved: [String] = []
        for (index, line) in code.enumerated() {
            guard let around = TodoPlace(line.text) else { continue }
            guard let answer = around.answer(in: learner[index].text), let right = around.answer(in: solution[index].text) else { return nil }
            mine.append((learner[index].number, answer))
            solved.append(right)
        }
        guard solved.count > 1, Set(solved).count == 1, let first = mine.first,
            let other = mine.first(where: { $0.answer != first.answer })
        else { return nil }
        return .failed(
            line: other.line,
            message:
                "the task asks for the same answer in every place: line \(first.line) has `\(first.answer)`, line \(other.line) `\(other.answer)` (an answer right on one input only is not the answer)"
        )
    }

    /// One foreground run's output: the last stage's events.
    struct Output {
        let title: String
        let events: [MarbleEvent.Timed]
    }

    /// The output of each foreground run of `script` on the virtual clock, or nil when it does not
    /// compile or a pipeline fails where the script does not expect it.
    static func outputs(of script: String, options: ShellOptions) -> [Output]? {
        var quiet = options
        quiet.clock = .virtual
        quiet.color = false
        quiet.keepsDiagrams = true
        quiet.svg = nil
        quiet.showsWarnings = false
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let out = OutputSink(fd: null)
        let runner = StatementRunner(options: quiet, out: out, wake: WakePipe(), verbosity: .silent)
        let result = runner.run(text: script, file: "hidden input")
        _ = runner.finish()
        out.flush()
        if case .compileErrors = result { return nil }
        return runner.diagrams.map { diagram in
            let last = diagram.run.lanes.lastIndex { $0.kind == .stage && $0.parent == nil }
            let events = last.map { diagram.run.lanes[$0].events.filter { $0.event != .subscribed } } ?? []
            return Output(title: diagram.text, events: events)
        }
    }

    /// `"z" at 400 ms, finished at 1100 ms`.
    static func describe(_ events: [MarbleEvent.Timed]) -> String {
        guard !events.isEmpty else { return "no events" }
        let shown = events.prefix(8).map { timed -> String in
            let at = "at \(timed.time / 1_000_000) ms"
            switch timed.event {
            case .value(let value): return "\(value.text) \(at)"
            case .finished: return "finished \(at)"
            case .failed: return "a failure \(at)"
            default: return "\(timed.event) \(at)"
            }
        }
        return shown.joined(separator: ", ") + (events.count > 8 ? ", …" : "")
    }
}

/// A line of the exercise as shipped around its `todo`: the text before and after it.
struct TodoPlace {
    let before: String
    let after: String

    /// nil when the line has no `todo` word.
    init?(_ line: String) {
        let characters = Array(line)
        let word = Array("todo")
        func identifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var index = 0
        while index + word.count <= characters.count {
            if Array(characters[index..<(index + word.count)]) == word, index == 0 || !identifier(characters[index - 1]),
                index + word.count == characters.count || !identifier(characters[index + word.count])
            {
                before = String(characters[..<index])
                after = String(characters[(index + word.count)...])
                return
            }
            index += 1
        }
        return nil
    }

    /// What `line` has in place of the `todo`, trimmed; nil when it changed the text around it.
    func answer(in line: String) -> String? {
        guard line.count >= before.count + after.count, line.hasPrefix(before), line.hasSuffix(after) else { return nil }
        return String(line.dropFirst(before.count).dropLast(after.count)).trimmingCharacters(in: .whitespaces)
    }
}

/// A learner's line beside the solution's: what they share (the input) and what differs (the
/// answer). Boundaries never cut a string in two.
struct LinePair {
    let learner: String
    let solution: String
    /// Characters at the start and at the end the two lines share.
    let prefix: Int
    let suffix: Int

    init(learner: String, solution: String) {
        self.learner = learner
        self.solution = solution
        let (mine, solved) = (Array(learner), Array(solution))
        var prefix = 0
        while prefix < min(mine.count, solved.count), mine[prefix] == solved[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(mine.count, solved.count) - prefix, mine[mine.count - 1 - suffix] == solved[solved.count - 1 - suffix] {
            suffix += 1
        }
        // The shared start ends inside a string: the string belongs to the answer.
        if let open = HiddenValues.openQuote(in: Array(mine[..<prefix])) { prefix = open }
        // The shared end starts inside a string: so does it.
        suffix = min(Self.snap(suffix, of: mine), Self.snap(suffix, of: solved), mine.count - prefix, solved.count - prefix)
        self.prefix = prefix
        self.suffix = suffix
    }

    /// `suffix` shortened so that it starts outside any string of `characters`.
    private static func snap(_ suffix: Int, of characters: [Character]) -> Int {
        let start = characters.count - suffix
        guard HiddenValues.openQuote(in: Array(characters[..<start])) != nil else { return suffix }
        guard let close = characters[start...].firstIndex(of: "\"") else { return 0 }
        return characters.count - (close + 1)
    }

    private func parts(_ text: String) -> (head: String, middle: String, tail: String) {
        let characters = Array(text)
        guard prefix + suffix <= characters.count else { return (text, "", "") }
        return (
            String(characters[..<prefix]), String(characters[prefix..<(characters.count - suffix)]),
            String(characters[(characters.count - suffix)...])
        )
    }

    /// The letters in the shared parts' strings.
    var changeableLetters: [Character] {
        let (head, _, tail) = parts(learner)
        return HiddenValues.letters(in: head) + HiddenValues.letters(in: tail)
    }

    /// The numbers of the shared parts' `from [...]` lists and marbles' `'42'`.
    var changeableNumbers: [Int] {
        let (head, _, tail) = parts(learner)
        return HiddenValues.numbers(in: head) + HiddenValues.numbers(in: tail)
    }

    func learnerText(_ values: HiddenValues) -> String { changed(learner, values) }
    func solutionText(_ values: HiddenValues) -> String { changed(solution, values) }

    private func changed(_ text: String, _ values: HiddenValues) -> String {
        let (head, middle, tail) = parts(text)
        return values.rewrite(head) + middle + values.rewrite(tail)
    }
}

/// The values of a line of Pipe code the hidden input changes: the letters inside its strings
/// (a marble's keys, a name), and the whole numbers of a `from [...]` list or of a marble's
/// `'42'`; the rest of the line (operators, times, counts, ranges) stays.
struct HiddenValues {
    var letters: [Character: Character] = [:]
    var numbers: [Int: Int] = [:]

    /// One piece of a line, as `walk` reads it.
    enum Piece {
        case character(Character, inString: Bool)
        case number(Int, text: String)
    }

    /// The lowercase ASCII letters inside the strings of `text`.
    static func letters(in text: String) -> [Character] {
        walk(text).compactMap {
            if case .character(let c, true) = $0, c.isASCII, c.isLowercase { return c }
            return nil
        }
    }

    /// The numbers `rewrite` changes.
    static func numbers(in text: String) -> [Int] {
        walk(text).compactMap {
            if case .number(let n, _) = $0 { return n }
            return nil
        }
    }

    /// `text` with its letters and numbers changed.
    func rewrite(_ text: String) -> String {
        var out = ""
        for piece in Self.walk(text) {
            switch piece {
            case .character(let c, let inString): out.append(inString ? letters[c] ?? c : c)
            case .number(let n, let original): out += numbers[n].map(String.init) ?? original
            }
        }
        return out
    }

    /// New numbers for `numbers`, none of them in `used`, of the sign the sample's are (all
    /// non-negative stay so) and up to twice as far from 0 as the largest.
    static func drawNumbers(for numbers: [Int], avoiding used: Set<Int>, using generator: inout some RandomNumberGenerator) -> [Int: Int] {
        guard let largest = numbers.map({ abs($0) }).max() else { return [:] }
        let limit = max(10, 2 * largest)
        let low = numbers.allSatisfy { $0 >= 0 } ? 0 : -limit
        var taken = used
        var drawn: [Int: Int] = [:]
        // The largest goes past the sample's range, so a bound read off the sample meets a number
        // beyond it every time.
        let farthest = numbers.max { abs($0) < abs($1) }
        for number in numbers {
            let range = number == farthest ? (max(largest + 1, 1)...limit) : (low...limit)
            let sign = number == farthest && number < 0 ? -1 : 1
            var candidate = sign * Int.random(in: range, using: &generator)
            var tries = 0
            while taken.contains(candidate), tries < 100 {
                candidate = sign * Int.random(in: range, using: &generator)
                tries += 1
            }
            taken.insert(candidate)
            drawn[number] = candidate
        }
        return drawn
    }

    /// Where the string still open at the end of `characters` starts, if one is.
    static func openQuote(in characters: [Character]) -> Int? {
        var open: Int?
        var escaped = false
        for (index, character) in characters.enumerated() {
            if escaped {
                escaped = false
            } else if character == "\\", open != nil {
                escaped = true
            } else if character == "\"" {
                open = open == nil ? index : nil
            }
        }
        return open
    }

    /// The pieces of `text`: characters (inside a string or not; quotes are not), and the numbers
    /// `rewrite` may change: a marble's `'42'` inside a string, an Int literal directly in the
    /// brackets of `from [...]` (not `1.5`, not a range).
    static func walk(_ text: String) -> [Piece] {
        let characters = Array(text)
        var pieces: [Piece] = []
        var inString = false
        var escaped = false
        var listDepth = 0
        var index = 0
        func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
        func lastSignificant() -> Character? { characters[..<index].last { $0 != " " } }
        while index < characters.count {
            let c = characters[index]
            if inString {
                if escaped || c == "\\" || c == "\"" {
                    // An escape and what it escapes stay as they are; a quote ends the string.
                    if c == "\"" && !escaped { inString = false }
                    escaped = !escaped && c == "\\"
                    pieces.append(.character(c, inString: false))
                    index += 1
                    continue
                }
                if c == "'", index + 1 < characters.count, isDigit(characters[index + 1]) {
                    // `'42'`: the digits up to the closing quote, all of them digits.
                    var end = index + 1
                    while end < characters.count, isDigit(characters[end]) { end += 1 }
                    if end < characters.count, characters[end] == "'", let n = Int(String(characters[(index + 1)..<end])) {
                        pieces.append(.character("'", inString: false))
                        pieces.append(.number(n, text: String(characters[(index + 1)..<end])))
                        pieces.append(.character("'", inString: false))
                        index = end + 1
                        continue
                    }
                }
                pieces.append(.character(c, inString: true))
                index += 1
                continue
            }
            if c == "\"" {
                inString = true
            } else if c == "[" {
                let before = String(characters[..<index]).trimmingCharacters(in: .whitespaces)
                if listDepth > 0 { listDepth += 1 } else if before.hasSuffix("from") { listDepth = 1 }
            } else if c == "]", listDepth > 0 {
                listDepth -= 1
            } else if listDepth == 1, isDigit(c) || (c == "-" && index + 1 < characters.count && isDigit(characters[index + 1])),
                [Character("["), ","].contains(lastSignificant() ?? " ")
            {
                var end = index + 1
                while end < characters.count, isDigit(characters[end]) { end += 1 }
                let next = end < characters.count ? characters[end] : " "
                if next != ".", !next.isLetter, next != "_", let n = Int(String(characters[index..<end])) {
                    pieces.append(.number(n, text: String(characters[index..<end])))
                    index = end
                    continue
                }
            }
            pieces.append(.character(c, inString: false))
            index += 1
        }
        return pieces
    }
}
