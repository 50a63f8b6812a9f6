import Foundation
import PipeLanguage
import Testing

/// Drives the REPL in a real pseudo-terminal through tmux: what a person at the keyboard sees.
@Suite(.serialized) struct TerminalTests {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A tmux session running plumb, killed at the end.
    final class Pane {
        let name = "plumb-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let tmux: String
        let history: String

        /// - Parameters:
        ///   - environment: more variables; a value of nil unsets one (`PLUMB_HISTORY` is a
        ///     temporary file unless given).
        ///   - inShell: run plumb from an interactive bash in the pane (for job control: Ctrl-Z, fg).
        init(tmux: String, binary: URL, arguments: [String] = [], environment: [String: String?] = [:], inShell: Bool = false) throws {
            self.tmux = tmux
            history = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).history").path
            var variables: [String: String?] = ["PLUMB_HISTORY": history, "NO_COLOR": "1", "TERM": "xterm"]
            variables.merge(environment) { $1 }
            let unset = variables.filter { $0.value == nil }.keys.sorted().map { "-u \($0)" }
            let set = variables.compactMap { key, value in value.map { "\(key)='\($0)'" } }.sorted()
            let env = (["env"] + unset + set).joined(separator: " ")
            let command = inShell ? "\(env) PS1='$ ' bash --norc --noprofile -i" : "\(env) \(([binary.path] + arguments).joined(separator: " "))"
            // A session made while the previous test's tmux server is shutting down can come up
            // empty and stay so on a busy machine: make it again once when nothing is drawn.
            for attempt in 1...2 {
                try run(["new-session", "-d", "-s", name, "-x", "100", "-y", "40", command])
                if attempt == 2 || wait(seconds: 5, { !$0.screen.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { break }
                try run(["kill-session", "-t", name])
            }
            if inShell {
                // Not `exec`: bash stays plumb's parent, so Ctrl-Z stops it as a job and `fg` resumes it.
                try run(["send-keys", "-t", name, "-l", binary.path])
                try run(["send-keys", "-t", name, "Enter"])
            }
        }

        deinit {
            _ = try? run(["kill-session", "-t", name])
            try? FileManager.default.removeItem(atPath: history)
        }

        /// Runs one tmux command and returns its status and standard output.
        ///
        /// Not Foundation's `Process`: the first `new-session` forks the tmux server, which would
        /// inherit Process's internal descriptors (and any pipe) and keep the wait from ever
        /// ending. posix_spawn with every other descriptor closed, output to a file, and waitpid.
        @discardableResult
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).out").path
            defer { unlink(outputPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // bash closes every other inherited descriptor in the child, then becomes tmux.
            let closeAll = #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null; fi; done; exec "$@""#
            let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/bash", "-c", closeAll, "bash", tmux] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            // Test threads block most signals and a spawned child inherits the mask; the tmux server
            // (and every pane) would too, so Ctrl-C could never reach the shell. Start from a clean one.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var empty = sigset_t()
            sigemptyset(&empty)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGWINCH, SIGPIPE, SIGHUP, SIGTERM] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigmask(&attributes, &empty)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environ)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let exited = status & 0x7f == 0
            return (exited ? (status >> 8) & 0xff : -1, output)
        }

        func send(_ keys: String...) throws { try run(["send-keys", "-t", name] + keys) }
        func type(_ text: String) throws { try run(["send-keys", "-t", name, "-l", text]) }

        var screen: String { (try? run(["capture-pane", "-p", "-t", name, "-S", "-200"]).output) ?? "" }
        var isAlive: Bool { (try? run(["has-session", "-t", name]).status) == 0 }

        /// The last non-blank line on the screen.
        var lastLine: String {
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
        }

        /// Polls until `condition` holds or `seconds` pass; returns whether it held.
        func wait(seconds: Double = 10, _ condition: (Pane) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(self) { return true }
                usleep(20_000)
            }
            return condition(self)
        }
    }

    @Test(
        "type a pipeline, Ctrl-C an interval, the prompt returns, Ctrl-D exits",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func interactiveSession() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")

        try pane.type("from [1, 2, 3] | map { $0 * 2 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 6") && $0.lastLine == "plumb>" }, "\(pane.screen)")

        // `interval 10ms | sink` once the catalog has it; a ticking asyncMap until then.
        let ticking = Catalog.entry(named: "interval") != nil ? "interval 10ms | sink" : "from 1...100000 | asyncMap delay 10ms | sink"
        try pane.type(ticking)
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") }, "interval did not run:\n\(pane.screen)")
        try pane.send("C-c")
        // A limit that only catches a hang (how fast the prompt returns is plumb-bench's `interrupt-latency`).
        #expect(pane.wait(seconds: 30) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.isAlive, "Ctrl-C killed the shell")

        // Ctrl-C at the prompt clears the line and keeps the shell.
        try pane.type("half typed")
        try pane.send("C-c")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")

        // Tab completes :commands; Up recalls history.
        try pane.type(":he")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb> :help") }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> \(ticking)" }, "\(pane.screen)")
        try pane.send("C-u")

        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "Ctrl-C stops a 100-million-value synchronous source; the prompt, history and bindings survive",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func interruptSynchronousSource() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("let small = from [7, 8]")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")

        let big = "from 1...100000000 | map { $0 * 2 } | sink"
        try pane.type(big)
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains(" value ") }, "the pipeline did not start:\n\(pane.screen)")
        try pane.send("C-c")
        #expect(
            pane.wait(seconds: 10) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" },
            "the prompt did not come back:\n\(pane.screen)")
        #expect(pane.isAlive, "Ctrl-C killed the shell")

        try pane.type("small | map { $0 + 1 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 9") && $0.lastLine == "plumb>" }, "the binding is gone:\n\(pane.screen)")
        try pane.send("Up")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> \(big)" }, "history lost the pipeline:\n\(pane.screen)")
        try pane.send("C-u")

        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "without colour, a line that fails with a fix-it (or a misspelt :command): the fix is shown and one Up away, never typed into the next line",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func fixItOffer() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from [1, 2] | map { $0 * 10ms }")
        try pane.send("Enter")
        #expect(
            pane.wait { $0.screen.contains("fix: from [1, 2] | map { $0 * 10 }  (press Up to get it)") },
            "no fix line:\n\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "the prompt is not empty:\n\(pane.screen)")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 2] | map { $0 * 10 }" }, "the fix is not one Up away:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 20") && $0.lastLine == "plumb>" }, "the fix did not run:\n\(pane.screen)")

        // Editing the offer: once taken it is ordinary typed text; typing something else instead
        // runs that alone.
        try pane.type("let s = subject")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("s.sned 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("fix: s.send 1") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> s.send 1" }, "\(pane.screen)")
        try pane.send("BSpace")
        try pane.type("2")
        #expect(pane.wait { $0.lastLine == "plumb> s.send 2" }, "\(pane.screen)")
        try pane.send("C-u")

        // A line without a fix-it leaves the next prompt empty.
        try pane.type("just 1 | map { $0 + }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("expected a value") && $0.lastLine == "plumb>" }, "\(pane.screen)")

        // A misspelt :command is offered corrected too.
        try pane.type(":jbos")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("did you mean ':jobs'?") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> :jobs" }, "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("no background jobs") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "Ctrl-Z and fg at the prompt: the prompt and the typed line are drawn again and keys echo once",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func suspendAndResume() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary, inShell: true)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("just 4")
        #expect(pane.wait { $0.lastLine == "plumb> just 4" }, "\(pane.screen)")
        try pane.send("C-z")
        #expect(pane.wait { $0.screen.contains("Stopped") && $0.lastLine == "$" }, "Ctrl-Z did not stop plumb:\n\(pane.screen)")
        try pane.type("fg")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb> just 4" }, "the prompt and line were not redrawn:\n\(pane.screen)")
        try pane.type(" | map { $0 + 1 }")
        #expect(pane.wait { $0.lastLine == "plumb> just 4 | map { $0 + 1 }" }, "keys echo twice:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { $0.lastLine == "$" }, "Ctrl-D did not exit:\n\(pane.screen)")
        try pane.type("exit")
        try pane.send("Enter")
        #expect(pane.wait { !$0.isAlive }, "the shell did not exit:\n\(pane.screen)")
    }

    @Test(
        "history goes to $HOME/.plumb_history when PLUMB_HISTORY is unset",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func historyInHome() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let home = try PlumbBinary.folder([:])
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let pane = try Pane(tmux: Self.tmux!, binary: binary, environment: ["PLUMB_HISTORY": nil, "HOME": home])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("just 41")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 41") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
        let saved = try? String(contentsOfFile: home + "/.plumb_history", encoding: .utf8)
        #expect(saved?.contains("just 41") == true, "history was not saved in $HOME: \(saved ?? "no file")")
    }

    @Test(
        "a PLUMB_HISTORY that cannot be written (a directory, a missing directory) is reported once; the session goes on",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"),
        arguments: [("/", "is a directory"), ("/nonexistent/h", "no such directory /nonexistent")])
    func unwritableHistory(path: String, reason: String) throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary, environment: ["PLUMB_HISTORY": path])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        let warning = "plumb: warning[W951]: history will not be saved: \(path): \(reason)"
        #expect(pane.screen.contains(warning), "no warning:\n\(pane.screen)")
        try pane.type("just 42")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 42") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.screen.components(separatedBy: warning).count == 2, "the warning was printed more than once:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "a background job's cancelled line prints above the next prompt, not after it",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func cancelledJobLineBeforePrompt() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("let s = subject")
        try pane.send("Enter")
        try pane.type("s | sink &")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("[1] +") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("cancelled") }, "\(pane.screen)")
        usleep(300_000)
        let lines = pane.screen.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.last == "plumb>", "\(pane.screen)")
        #expect(
            lines.dropLast().last?.hasPrefix("[1] +") == true && lines.dropLast().last?.contains("cancelled") == true,
            "the cancelled line is not just above the prompt:\n\(pane.screen)")
        #expect(!lines.contains { $0.hasPrefix("plumb> [1]") }, "the cancelled line printed after the prompt:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "a background job prints above the prompt without corrupting the typed line",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func backgroundJob() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from [1, 2, 3] | asyncMap delay 200ms | sink &")
        try pane.send("Enter")
        try pane.type("just 4")
        // At least 600 ms; more on a busy machine.
        #expect(
            pane.wait { $0.screen.contains("[1] +") && $0.screen.contains("finished                3 values") },
            "\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb> just 4" }, "the typed line was not redrawn:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 4") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })
    }
}
