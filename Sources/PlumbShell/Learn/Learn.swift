import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// `plumb learn`: walks a learner through a workshop's exercises in order.
///
/// On a terminal it checks the exercises, shows the progress (`3/15 done`), stops at the first
/// that does not pass, prints its lesson and what fails, and waits: it checks again when the file
/// is saved (its modification time, polled every 200 ms) and moves on when it passes. Keys: `h`
/// the next hint, `r` check again, `q` (or Ctrl-C, Ctrl-D) quit. `--once` (and any run without a
/// terminal) checks once, prints the progress and the next exercise, and exits 0 only when all pass.
struct Learn {
    var options: ShellOptions

    private var style: Style { Style(enabled: options.color) }

    /// The workshop of `directory` (nil: the current folder's exercises, the repository's or the
    /// installed ones, as `WorkshopFolder` finds them).
    func run(directory: String?, once: Bool) -> Int32 {
        let workshop: Workshop
        switch Workshop.load(requested: directory) {
        case .success(let w): workshop = w
        case .failure(let problem):
            writeStandardError(.workshopProblem(problem.message))
            return ExitCode.usage
        }
        workshop.keepPristineCopies()
        if once {
            var statuses: [ExerciseStatus] = []
            for exercise in workshop.exercises {
                guard let status = Workshop.check(exercise, options: options) else { return ExitCode.interrupted }
                statuses.append(status)
            }
            return report(workshop, statuses)
        }
        return interactive(workshop)
    }

    /// `plumb learn --reset FILE`: the exercise as it was first seen.
    func reset(_ file: String) -> Int32 {
        let exercise = Exercise(path: file, text: "")
        guard FileManager.default.fileExists(atPath: exercise.pristinePath) else {
            writeStandardError(
                .workshopProblem(
                    "no pristine copy of \(file) (plumb learn keeps one when it first sees an exercise; git checkout \(file) also restores it)"))
            return ExitCode.usage
        }
        do {
            let original = try Data(contentsOf: URL(fileURLWithPath: exercise.pristinePath))
            try original.write(to: URL(fileURLWithPath: file))
        } catch {
            writeStandardError(.cannotWriteFile("cannot restore \(file): \(error.localizedDescription)"))
            return ExitCode.usage
        }
        print("restored \(file) to its first version")
        return ExitCode.success
    }

    // MARK: once

    private func report(_ workshop: Workshop, _ statuses: [ExerciseStatus]) -> Int32 {
        let done = statuses.filter(\.passed).count
        print("\(done)/\(statuses.count) done")
        guard let next = statuses.firstIndex(where: { !$0.passed }) else {
            print(style.green("All \(statuses.count) exercises pass."))
            return ExitCode.success
        }
        let exercise = workshop.exercises[next]
        print("next: \(exercise.name) (\(exercise.path))" + (exercise.lesson.first.map { ": \($0)" } ?? ""))
        print(failureText(exercise, statuses[next]))
        return ExitCode.failure
    }

    private func failureText(_ exercise: Exercise, _ status: ExerciseStatus) -> String {
        switch status {
        case .passed: return style.green("✓ \(exercise.name) passes")
        case .failed(let line, let message): return style.red("✗") + " \(exercise.path):\(line): \(message)"
        case .unreadable(let message): return style.red("✗") + " \(message)"
        }
    }

    // MARK: interactive

    /// Walks the exercises. Every check runs in a child (`Workshop.check`) while the keys are
    /// read: `q`, Ctrl-C or Ctrl-D end it and quit, however long it would take.
    private func interactive(_ workshop: Workshop) -> Int32 {
        let terminal = RawTerminal()
        defer { terminal.restore() }
        var quit = false
        let stop: () -> Bool = {
            if let key = terminal.readKey(timeoutMilliseconds: 0), [UInt8(ascii: "q"), 3, 4].contains(key) { quit = true }
            return quit
        }
        func check(_ exercise: Exercise) -> ExerciseStatus? { Workshop.check(exercise, options: options, shouldStop: stop) }
        var statuses: [ExerciseStatus] = []
        for exercise in workshop.exercises {
            guard let status = check(exercise) else {
                print("")
                return ExitCode.success
            }
            statuses.append(status)
        }
        var shown: Int?
        var hintsShown = 0
        var modified: Date?
        while true {
            guard let current = statuses.firstIndex(where: { !$0.passed }) else {
                print("\(statuses.count)/\(statuses.count) done")
                print(style.green("All \(statuses.count) exercises pass. Well done."))
                return ExitCode.success
            }
            let exercise = workshop.exercises[current]
            if shown != current {
                shown = current
                hintsShown = 0
                printLesson(exercise, status: statuses[current], done: statuses.filter(\.passed).count, of: statuses.count)
                modified = Self.modificationDate(exercise.path)
            }
            switch terminal.readKey(timeoutMilliseconds: 200) {
            case UInt8(ascii: "q")?, 3?, 4?:
                print("")
                return ExitCode.success
            case UInt8(ascii: "h")?:
                if hintsShown < exercise.hints.count {
                    print(style.yellow("hint \(hintsShown + 1)/\(exercise.hints.count): ") + exercise.hints[hintsShown])
                    hintsShown += 1
                } else {
                    print(style.dim(exercise.hints.isEmpty ? "no hints for this one" : "no more hints"))
                }
            case UInt8(ascii: "r")?:
                guard let status = recheck(exercise, stop) else { return quitNow() }
                statuses[current] = status
                modified = Self.modificationDate(exercise.path)
            default:
                let now = Self.modificationDate(exercise.path)
                if now != modified {
                    modified = now
                    guard let status = recheck(exercise, stop) else { return quitNow() }
                    statuses[current] = status
                }
            }
            if statuses[current].passed {
                print(style.green("✓ \(exercise.name) passes"))
                // Later exercises may have been solved meanwhile: check them again.
                for i in statuses.indices where i > current {
                    guard let status = check(workshop.exercises[i]) else { return quitNow() }
                    statuses[i] = status
                }
            }
        }
    }

    private func recheck(_ exercise: Exercise, _ stop: () -> Bool) -> ExerciseStatus? {
        print(style.dim("checking \(exercise.name) … (q: quit)"))
        fflush(nil)
        guard let status = Workshop.check(exercise, options: options, shouldStop: stop) else { return nil }
        if !status.passed { print(failureText(exercise, status)) }
        return status
    }

    private func quitNow() -> Int32 {
        print("")
        return ExitCode.success
    }

    private func printLesson(_ exercise: Exercise, status: ExerciseStatus, done: Int, of total: Int) {
        print("")
        print(style.bold("\(done)/\(total) done") + "  ·  " + style.bold(exercise.name))
        for line in exercise.lesson { print("  " + line) }
        print("")
        print(failureText(exercise, status))
        print(style.dim("Edit \(exercise.path) and save it: it is checked again. h: hint (\(exercise.hints.count))  r: check again  q: quit"))
        fflush(nil)
    }

    private static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
