import Foundation
import PipeLanguage
import PlumbDiagrams
import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// One workshop exercise: its lesson (the comment block it starts with), its hints (`# hint:`
/// lines, shown one at a time) and where it lives.
struct Exercise: Sendable, Hashable {
    let path: String
    let name: String
    let lesson: [String]
    let hints: [String]

    /// Reads the lesson and hints out of an exercise's text.
    init(path: String, text: String) {
        self.path = path
        self.name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var lesson: [String] = []
        var hints: [String] = []
        for line in LineIndex.lines(of: text) {
            let trimmed = LineIndex.content(of: line).trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("# hint:") {
                hints.append(String(trimmed.dropFirst("# hint:".count)).trimmingCharacters(in: .whitespaces))
            } else if trimmed.hasPrefix("#") {
                if hints.isEmpty { lesson.append(String(trimmed.dropFirst().drop(while: { $0 == " " }))) }
            } else if !trimmed.isEmpty {
                break
            }
        }
        while lesson.last?.isEmpty == true { lesson.removeLast() }
        self.lesson = lesson
        self.hints = hints
    }

    /// Where `plumb learn --reset` restores the exercise from: a hidden copy beside it, made the
    /// first time `plumb learn` sees the exercise.
    var pristinePath: String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".pristine").path
    }
}

/// How an exercise stands.
enum ExerciseStatus: Sendable, Equatable {
    case passed
    /// Where it fails and why (an `expect` that does not hold, with its marble diff; a diagnostic;
    /// a pipeline that failed at its `todo`).
    case failed(line: Int, message: String)
    case unreadable(String)

    var passed: Bool { self == .passed }
}

/// A folder of exercises (`NN-name.pipe`, in name order) and the checks `plumb learn` runs.
struct Workshop {
    let directory: String
    let exercises: [Exercise]

    /// Reads the exercises of the folder named on the command line, or of the default one
    /// `folder` finds when none is named, or says why it cannot.
    static func load(requested: String?, folder: WorkshopFolder = .here) -> Result<Workshop, WorkshopProblem> {
        folder.resolve(requested).flatMap(load)
    }

    /// Reads the exercises of `directory`, or says why it cannot.
    static func load(_ directory: String) -> Result<Workshop, WorkshopProblem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(WorkshopProblem(message: "\(directory) is not a folder of exercises"))
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return .failure(WorkshopProblem(message: "cannot read \(directory)"))
        }
        let files = names.filter { $0.hasSuffix(".pipe") && $0.first?.isNumber == true }.sorted()
        guard !files.isEmpty else { return .failure(WorkshopProblem(message: "no exercises (NN-name.pipe) in \(directory)")) }
        var exercises: [Exercise] = []
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file)
            // One that cannot be read stays in the list: its check fails and says why.
            let text = if case .success(let t) = ScriptFile.read(path) { t } else { "" }
            exercises.append(Exercise(path: path, text: text))
        }
        return .success(Workshop(directory: directory, exercises: exercises))
    }

    /// The variable a test sets to raise (never lower) the real time an exercise's check may take,
    /// in seconds: a test of another limit (`LearnTests.greedyExerciseIsBounded`, the memory
    /// limit) then sees that limit, however loaded the machine, as the room's test does with its
    /// own configuration (`ServeEndToEndTests.memoryLimit`: 30 s).
    static let testSecondsVariable = "PLUMB_LEARN_TEST_SECONDS"

    /// The limits `plumb learn` checks an exercise under: the room's for a run (`RunLimits()`),
    /// with the real time raised where `testSecondsVariable` asks.
    static var checkLimits: RunLimits {
        var limits = RunLimits()
        if let text = ProcessInfo.processInfo.environment[testSecondsVariable], let seconds = Double(text), seconds > limits.seconds {
            limits.seconds = seconds
        }
        return limits
    }

    /// Checks an exercise in a child `plumb` (`ChildCheck`), so a crash or a check that will not
    /// end costs this exercise only, and `shouldStop` (polled while it runs: `q`) can end it. The
    /// child runs under the room's limits for a run (`RunLimits`: real time, data memory,
    /// output), so a check ends alike wherever it runs (`plumb learn`, `--once`, `plumb serve`):
    /// `interval 1ns | count` on the virtual clock, which ticks a billion times per virtual
    /// second, stops at 5 s, a `collect` of ever larger values at 512 MiB, each failing with
    /// the room's words.
    /// - Returns: nil when `shouldStop` ended the check (or Ctrl-C did).
    static func check(
        _ exercise: Exercise, options: ShellOptions, limits: RunLimits = Workshop.checkLimits, shouldStop: () -> Bool = { false }
    ) -> ExerciseStatus? {
        let (ending, output) = ChildCheck.run(
            file: exercise.path, arguments: Array(CommandLine.arguments.dropFirst()), limits: limits, shouldStop: shouldStop)
        switch ending {
        case .stopped(let limit): return .failed(line: 1, message: limits.message(limit))
        case .interrupted: return nil
        case .crashed(let signal):
            return .failed(line: 1, message: "plumb stopped by \(ChildCheck.describe(signal: signal)) while checking it")
        case .exited:
            return ChildCheck.decode(output) ?? .failed(line: 1, message: "the check gave no result")
        }
    }

    /// The check itself, in this process (the child's work): passed only when the exercise can be
    /// read, has at least one `expect`, every `expect` holds, no pipeline failed unexpectedly,
    /// nothing is left to write, and, where the folder holds the exercise's solution
    /// (`solutions/NAME.pipe`), the answer does what the solution does on an input the learner
    /// cannot see (`HiddenInputCheck`).
    static func checkHere(_ exercise: Exercise, options: ShellOptions) -> ExerciseStatus {
        switch ScriptFile.read(exercise.path) {
        case .success(let text): return check(text: text, file: exercise.path, options: options).status
        case .failure(let failure): return .unreadable(failure.message)
        }
    }

    /// The check of an exercise's text (`plumb learn`'s child reads it from the file, `plumb
    /// serve`'s from the learner), with the diagrams of its runs when `options.svg` asks for them.
    ///
    /// - Parameter workshop: the folder the exercise was served from (`plumb serve`'s), where its
    ///   solution and shipped text are; nil: beside `file` (the solution in `solutions/`, the text
    ///   as shipped in the copy `plumb learn` keeps).
    static func check(
        text: String, file: String, options: ShellOptions, workshop: String? = nil
    ) -> (status: ExerciseStatus, diagrams: [(text: String, run: MarbleRun)]) {
        let code = LineIndex.lines(of: text).map { LineIndex.content(of: $0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        if code.isEmpty {
            return (.failed(line: 1, message: "the exercise is empty: it needs a pipeline and an expect line to check it"), [])
        }
        var quietOptions = options
        quietOptions.clock = .virtual
        quietOptions.color = false
        let runner = StatementRunner(options: quietOptions, out: OutputSink(fd: STDOUT_FILENO), wake: WakePipe(), verbosity: .silent)
        let result = runner.run(text: text, file: file)
        let report = runner.finish()
        let status: ExerciseStatus
        switch result {
        case .expectationFailed(let message, let location): status = .failed(line: location.line, message: message)
        case .compileErrors:
            let error = report.firstError
            status = .failed(line: error?.location.line ?? 1, message: error?.headline ?? "the exercise has errors")
        default:
            if report.exitCode != ExitCode.success {
                status = .failed(line: report.firstError?.location.line ?? 1, message: report.firstError?.message ?? "a pipeline failed")
            } else if !code.contains(where: { $0 == "expect" || $0.hasPrefix("expect ") }) {
                status = .failed(line: 1, message: "the exercise has no check: add an expect line (expect values [...], expect marbles \"...\")")
            } else if let hidden = hiddenInput(text: text, file: file, options: quietOptions, workshop: workshop)?.status() {
                // The visible checks hold: the same answer on keys the learner cannot see.
                status = hidden
            } else {
                status = .passed
            }
        }
        return (status, runner.diagrams)
    }

    /// The hidden-input check of an exercise whose solution can be found, else nil.
    static func hiddenInput(text: String, file: String, options: ShellOptions, workshop: String?) -> HiddenInputCheck? {
        let served = workshop.map { ($0 as NSString).appendingPathComponent((file as NSString).lastPathComponent) }
        let template = try? String(contentsOfFile: served ?? Exercise(path: file, text: "").pristinePath, encoding: .utf8)
        guard let solution = HiddenInputCheck.solution(forExerciseAt: served ?? file, template: template) else { return nil }
        return HiddenInputCheck(learner: text, solution: solution, options: options, template: template)
    }

    /// Keeps a pristine copy of each exercise beside it, the first time (for `--reset`).
    func keepPristineCopies() {
        for exercise in exercises where !FileManager.default.fileExists(atPath: exercise.pristinePath) {
            try? FileManager.default.copyItem(atPath: exercise.path, toPath: exercise.pristinePath)
        }
    }
}

/// Why a workshop folder cannot be used.
struct WorkshopProblem: Error, Sendable {
    let message: String
}
