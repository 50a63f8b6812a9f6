import Foundation
import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// `plumb serve DIR`: hosts a workshop room. Prints the learners' URL (with the room's token,
/// and as a QR code when standard output is a terminal or `--qr` asks) and the teacher's (with
/// the teacher's key), then one log line per request, until Ctrl-C or SIGTERM, which close every
/// live stream and stop the server.
enum ServeCommand {
    static func run(directory: String?, host: String, port: Int, state: String?, qr: Bool?) -> Int32 {
        let workshop: Workshop
        switch Workshop.load(requested: directory) {
        case .success(let w): workshop = w
        case .failure(let problem):
            writeStandardError(.workshopProblem(problem.message))
            return ExitCode.usage
        }
        // The workers inherit it: a check runs the answer beside the solution on a hidden input.
        setenv(ServeWorker.workshopVariable, URL(fileURLWithPath: workshop.directory).standardizedFileURL.path, 1)
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
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        // Blocked here, before any thread starts (threads inherit the mask), and taken by
        // `sigwait` below: the server is stopped in order, not in the middle of a write.
        pthread_sigmask(SIG_BLOCK, &endingSignals, nil)
        // Every connection is a descriptor: raise the soft limit (often 1,024) to the hard one,
        // at most 65,536, so the server's 2,048 connections and its children's pipes fit.
        var files = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = min(files.rlim_max, 65_536)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        }
        let stateDirectory = URL(fileURLWithPath: state ?? (workshop.directory as NSString).appendingPathComponent(".plumb-room"))
        let room: Room
        let server: HTTPServer
        let log = RequestLog()
        do {
            var configuration = RoomConfiguration(exercises: exercises, stateDirectory: stateDirectory)
            // A damaged state file, set aside or repaired, is told on the log with its path.
            configuration.report = { log.add(stamp() + " plumb serve: " + $0) }
            room = try Room(configuration)
            server = try HTTPServer(host: host, port: UInt16(port), bodyLimits: Room.bodyLimit, log: { log.add(stamp() + " " + $0) }) { room.handle($0) }
        } catch let error as ServerError {
            writeStandardError(.workshopProblem(error.message))
            return ExitCode.usage
        } catch {
            writeStandardError(.workshopProblem("cannot keep the room's state in \(stateDirectory.path): \(error.localizedDescription)"))
            return ExitCode.usage
        }
        let shown = host == "0.0.0.0" || host == "::" ? ProcessInfo.processInfo.hostName : HTTPServer.urlHost(host)
        let base = "http://\(shown):\(server.boundPort)"
        let learners = "\(base)/?room=\(room.roomToken)"
        write(
            """
            plumb serve: \(exercises.count) exercises from \(workshop.directory); progress kept in \(stateDirectory.path)
            learners: \(learners)
            teacher:  \(base)/teacher?key=\(room.teacherKey)

            """)
        if qr ?? (isatty(STDOUT_FILENO) == 1), let code = QRCode(learners) {
            write(code.rendered() + "\n")
        }
        // On loopback, no phone can open the URL (nor the QR code): say so, with the command
        // that serves the same room (its state folder, so the same links) to the network.
        let loopback = HTTPServer.isLoopback(host)
        var open = ["plumb", "serve", workshop.directory, "--host", "0.0.0.0", "--port", String(server.boundPort)]
        if let state { open += ["--state", state] }
        let openCommand = open.map(shellQuoted).joined(separator: " ")
        room.announce(url: learners, loopback: loopback, openCommand: openCommand)
        // The browser tests see the stuck marker by time on a clock they move, never in a room
        // others can reach.
        if ProcessInfo.processInfo.environment["PLUMB_SERVE_TEST_CLOCK"] == "1" {
            if loopback {
                room.allowTestClock()
                write("note: PLUMB_SERVE_TEST_CLOCK=1: the teacher's key may move the table's clock (for browser tests)\n")
            } else {
                write("note: PLUMB_SERVE_TEST_CLOCK is ignored: the room is not on loopback\n")
            }
        }
        if loopback {
            write(Room.loopbackNote(openCommand: openCommand))
        } else {
            write("note: listening on \(host): anyone who can reach this machine and has the URL can join\n")
        }
        // The server's threads do the work; this one waits for Ctrl-C or SIGTERM (the progress
        // is saved at every change), then ends every live stream and stops the server.
        var signalNumber: Int32 = 0
        while sigwait(&endingSignals, &signalNumber) != 0 {}
        server.stop()
        // Through the log's own thread: standard output may be a pipe nobody reads any more.
        log.add("plumb serve: stopped")
        log.finish(within: 2)
        return ExitCode.success
    }

    /// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-:=,+@".unicodeScalars.contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
