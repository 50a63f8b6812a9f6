import Foundation
import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// `plumb serve DIR`: hosts a workshop room. Prints the learners' URL (with the room's token)
/// and the teacher's (with the teacher's key), then one log line per request, until ended.
enum ServeCommand {
    static func run(directory: String, host: String, port: Int, state: String?) -> Int32 {
        let workshop: Workshop
        switch Workshop.load(directory) {
        case .success(let w): workshop = w
        case .failure(let problem):
            writeStandardError(.workshopProblem(problem.message))
            return ExitCode.usage
        }
        var exercises: [RoomExercise] = []
        for exercise in workshop.exercises {
            guard case .success(let text) = ScriptFile.read(exercise.path) else {
                writeStandardError(.workshopProblem("cannot read \(exercise.path)"))
                return ExitCode.usage
            }
            exercises.append(RoomExercise(name: exercise.name, lesson: exercise.lesson, hints: exercise.hints, text: text))
        }
        // Ctrl-C and a plain `kill` end the room whatever the starting process had blocked or
        // ignored (a test runner's child inherits its signal mask); set before any thread starts.
        var endingSignals = sigset_t()
        sigemptyset(&endingSignals)
        sigaddset(&endingSignals, SIGINT)
        sigaddset(&endingSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &endingSignals, nil)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let stateDirectory = URL(fileURLWithPath: state ?? (directory as NSString).appendingPathComponent(".plumb-room"))
        let room: Room
        let server: HTTPServer
        do {
            room = try Room(RoomConfiguration(exercises: exercises, stateDirectory: stateDirectory))
            let log = RequestLog()
            server = try HTTPServer(host: host, port: UInt16(port), log: { log.add(stamp() + " " + $0) }) { room.handle($0) }
        } catch let error as ServerError {
            writeStandardError(.workshopProblem(error.message))
            return ExitCode.usage
        } catch {
            writeStandardError(.workshopProblem("cannot keep the room's state in \(stateDirectory.path): \(error.localizedDescription)"))
            return ExitCode.usage
        }
        let shown = host == "0.0.0.0" ? (ProcessInfo.processInfo.hostName) : host
        let base = "http://\(shown):\(server.boundPort)"
        write(
            """
            plumb serve: \(exercises.count) exercises from \(directory); progress kept in \(stateDirectory.path)
            learners: \(base)/?room=\(room.roomToken)
            teacher:  \(base)/teacher?key=\(room.teacherKey)

            """)
        if host != "127.0.0.1" && host != "localhost" {
            write("note: listening on \(host): anyone who can reach this machine and has the URL can join\n")
        }
        // The server's threads do the work; this one waits until a signal ends the process (the
        // progress is saved at every change).
        while true { sleep(3600) }
    }

    /// The time now, as the log shows it (UTC, ISO 8601).
    private static func stamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
            Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Writes all of `text` to standard output (write(2) directly: no buffer to flush).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }
}
