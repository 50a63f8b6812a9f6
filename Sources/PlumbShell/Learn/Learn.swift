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

    func run(directory: String, once: Bool) -> Int32 {
        let workshop: Workshop
        switch Workshop.load(directory) {
        case .success(let w): workshop = w
        case .failure(let problem):
            writeStandardError(.workshopProblem(problem.message))
            return ExitCode.usage
        }
        workshop.keepPristineCopies()
        let statuses = workshop.exercises.map { Workshop.check($0, options: options) }
        if once { return report(workshop, statuses) }
        return interactive(workshop, statuses)
    }

    /// `plumb learn --reset FILE`: the exercise as it was first seen.
    func reset(_ file: String) -> Int32 {
        let exercise = Exercise(path: file, text: "")
        guard FileManager.default.fileExists(atPath: exercise.pristinePath) else {
            writeStandardError(.workshopProblem(
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

    private func interactive(_ workshop: Workshop, _ initial: [ExerciseStatus]) -> Int32 {
        var statuses = initial
        let terminal = RawTerminal()
        defer { terminal.restore() }
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
                statuses[current] = recheck(exercise)
                modified = Self.modificationDate(exercise.path)
            default:
                let now = Self.modificationDate(exercise.path)
                if now != modified {
                    modified = now
                    statuses[current] = recheck(exercise)
                }
            }
            if statuses[current].passed {
                print(style.green("✓ \(exercise.name) passes"))
                // Later exercises may have been solved meanwhile: check them again.
                for i in statuses.indices where i > current { statuses[i] = Workshop.check(workshop.exercises[i], options: options) }
            }
        }
    }

    private func recheck(_ exercise: Exercise) -> ExerciseStatus {
        let status = Workshop.check(exercise, options: options)
        if !status.passed { print(failureText(exercise, status)) }
        return status
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

/// Standard input, one key at a time without echo, for `plumb learn`'s keys; Ctrl-C arrives as a
/// key (byte 3) so quitting restores the terminal. Not a terminal: keys are read as they come.
final class RawTerminal {
    private var saved = termios()
    private let active: Bool

    init() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            active = false
            return
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
    }

    /// A key, or nil when none came within the timeout (or standard input is closed).
    func readKey(timeoutMilliseconds: Int32) -> UInt8? {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeoutMilliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        let n = read(STDIN_FILENO, &byte, 1)
        if n == 0 {
            // End of input: wait out the timeout so the caller's file polling still runs.
            usleep(UInt32(timeoutMilliseconds) * 1000)
            return nil
        }
        return n == 1 ? byte : nil
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}
