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

        init(tmux: String, binary: URL) throws {
            self.tmux = tmux
            history = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).history").path
            try run(["new-session", "-d", "-s", name, "-x", "100", "-y", "40",
                     "env PLUMB_HISTORY=\(history) NO_COLOR=1 TERM=xterm \(binary.path)"])
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

    @Test("type a pipeline, Ctrl-C an interval, the prompt returns, Ctrl-D exits",
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
        let pressed = Date()
        try pane.send("C-c")
        #expect(pane.wait(seconds: 5) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(Date().timeIntervalSince(pressed) < 2, "the prompt took too long to return")
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

    @Test("Ctrl-C stops a 100-million-value synchronous source; the prompt, history and bindings survive",
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
        #expect(pane.wait(seconds: 10) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" },
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

    @Test("a line that fails with a fix-it (or a misspelt :command): the fix is shown, pre-filled on the next prompt, and Enter runs it",
          .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func fixItOffer() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from [1, 2] | map { $0 * 10ms }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("fix: from [1, 2] | map { $0 * 10 }  (press Enter to run it, or edit it)") },
                "no fix line:\n\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 2] | map { $0 * 10 }" }, "the prompt is not pre-filled:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 20") && $0.lastLine == "plumb>" }, "the fix did not run:\n\(pane.screen)")

        // Editing the offer: the pre-filled text is ordinary typed text.
        try pane.type("let s = subject")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("s.sned 1")
        try pane.send("Enter")
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
        #expect(pane.wait { $0.screen.contains("did you mean ':jobs'?") && $0.lastLine == "plumb> :jobs" }, "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("no background jobs") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test("a background job prints above the prompt without corrupting the typed line",
          .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func backgroundJob() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from [1, 2, 3] | asyncMap delay 200ms | sink &")
        try pane.send("Enter")
        try pane.type("just 4")
        #expect(pane.wait { $0.screen.contains("[1] +0.600s  finished") || $0.screen.contains("[1] +0.6") && $0.screen.contains("finished") },
                "\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb> just 4" }, "the typed line was not redrawn:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 4") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })
    }
}
