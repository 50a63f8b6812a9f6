import PipeLanguage

/// The texts of `plumb --help`, `plumb help COMMAND` and `plumb help diagnostics` (also `:help
/// diagnostics` in the REPL).
enum HelpText {
    static let overview = """
        plumb: an interactive shell for reactive pipelines

        USAGE
          plumb [OPTIONS]                    the REPL (or statements from standard input when it is not a terminal)
          plumb run FILE... | -              run scripts, statement by statement
          plumb check FILE...                parse and statically check scripts only
          plumb test PATH...                 run scripts and check their `expect` lines (folders: every .pipe inside)
          plumb learn [DIR]                  the workshop, one exercise at a time (default Examples/workshop)
          plumb learn --once [DIR]           check the exercises once: "N/M done" and the next one
          plumb learn --reset FILE           restore an exercise to its first version
          plumb swift [--program] FILE       the script's pipelines as Swift Combine code against Reactive
                                             (--program: one main.swift that compiles and runs)
          plumb lsp                          the language server for editors (LSP over standard input/output)
          plumb serve [DIR] [--host H] [--port N] [--state DIR] [--qr | --no-qr]
                                             a workshop room in the browser (default Examples/workshop, 127.0.0.1:8080)
          plumb help [COMMAND]               this text, or one command's
          plumb help diagnostics | ID        every diagnostic's code and name, or one of them (E302,
                                             unknown-operator)
          plumb help --markdown [DIR]        write the operator reference (DIR/Operators.md, default Docs)
                                             with each example's diagram (DIR/diagrams/NAME.svg)
          plumb help --man                   this text as a manual page (roff), as installed
          plumb completions bash|zsh|fish    the completion script for a shell (Scripts/install puts
                                             them where the shells look)

        OPTIONS
          --clock real|virtual               the clock for time-based sources and operators (default: real;
                                             `plumb test` defaults to virtual: instant and repeatable)
          --format text|jsonl                event output: aligned text, or one JSON object per line
          --no-color                         no colours (also when NO_COLOR is set, or stdout is not a terminal)
          --trace                            start with :trace on
          --until D                          virtual clock: stop a run that only an endless timer (interval)
                                             keeps going after D of virtual time (default 1h)
          --marbles                          a marble diagram after each foreground pipeline (the REPL's default)
          --svg OUT.svg                      (run) the foreground pipelines' diagrams as one SVG picture
          --report junit FILE.xml | tap      (test) the results for CI: JUnit XML in FILE.xml, or TAP
                                             on standard output
          -h, --help                         show help
          --version                          show the version

        EXAMPLES
          plumb
          plumb run Examples/tour.pipe
          echo 'from 1...3 | map { $0 * 2 }' | plumb
          plumb --clock virtual --format jsonl run Examples/async.pipe
          plumb test Examples/expect.pipe Examples/workshop/solutions
          plumb learn

        ENVIRONMENT
          PLUMB_HISTORY                      the REPL's history file (default $HOME/.plumb_history)
          NO_COLOR                           set to anything non-empty to turn colours off

        EXIT CODES
          0    success
          1    a pipeline failed, or an `expect` did not hold
          2    usage error (bad arguments, unreadable file)
          65   a script has syntax or static errors
          130  interrupted: Ctrl-C (SIGINT) cancelled a script's running pipeline, which printed
               `cancelled`; the rest of the script did not run and plumb ended by SIGINT
          141  standard output's reader went away (`plumb run x | head -1`): the running
               pipeline was cancelled and plumb ended (another failed write to standard output,
               such as a full device, is status 1 with one line on standard error)

        In the REPL, :help lists the commands and :ops the operators (:help diagnostics, the
        diagnostics); Ctrl-C there cancels the running pipeline and keeps the session.
        """

    static func command(_ name: String) -> String {
        switch name {
        case "learn":
            return """
                plumb learn [DIR]
                plumb learn --once [DIR]
                plumb learn --reset FILE

                Walks you through the workshop's exercises (NN-name.pipe in DIR, default
                Examples/workshop) in order. Each is a short lesson in comments and a task: a
                pipeline with a `todo` where your answer goes, and `expect` lines that pass only when
                it is right. On a terminal, plumb learn shows how far you are ("3/15 done"), the
                first exercise that does not pass, its lesson and what fails (a marble diff for
                `expect marbles`), and waits: save the file and it is checked again; when it
                passes, the next one comes. Keys: h the next hint, r check again, q or Ctrl-C quit.

                --once checks every exercise once, prints "N/M done" and the next exercise, and
                exits 0 only when all pass (for scripts, and for a teacher checking the room).
                --reset FILE restores an exercise from the pristine copy plumb learn keeps beside
                it (a hidden .NAME.pipe.pristine, made the first time it sees the exercise).

                Exercises run on the virtual clock: times are exact and nothing waits.
                """
        case "run":
            return """
                plumb run FILE... | -

                Runs each script statement by statement, printing every event with its time since
                subscription and a summary line. A foreground pipeline runs to completion before the next
                statement; background jobs (`&`) are cancelled at the end of the script unless they have
                finished. `:`-commands work as in the REPL. `-` reads the script from standard input.
                A script with errors is reported and not run. Ctrl-C (SIGINT) cancels the running
                pipeline at once, even a synchronous source in the middle of its values: it prints
                `cancelled`, background jobs are cancelled, the script stops, and plumb ends by SIGINT
                (a shell shows status 130 and stops a loop running plumb). A second Ctrl-C before
                that ends plumb at once.

                OPTIONS  --clock real|virtual, --format text|jsonl, --no-color, --trace

                EXIT CODES
                  0    every pipeline finished (or failed as an `expect failed` said it would)
                  1    a pipeline failed, or an `expect` did not hold
                  2    usage error, or a file could not be read
                  65   a script has syntax or static errors (nothing of it ran)
                  130  interrupted by Ctrl-C (SIGINT)
                  141  standard output's reader went away; the running pipeline was cancelled

                EXAMPLE
                  plumb --clock virtual run Examples/tour.pipe
                """
        case "check":
            return """
                plumb check FILE...

                Parses and statically checks each script without running anything: syntax, unknown names,
                argument counts and kinds, and warnings such as `retry has no effect: upstream never fails`.
                Diagnostics go to standard error; each clean file prints `ok FILE`.

                EXIT CODES
                  0    no errors (warnings allowed)
                  2    usage error, or a file could not be read
                  65   a script has syntax or static errors
                """
        case "test":
            return """
                plumb test PATH...
                plumb test --report junit FILE.xml PATH...
                plumb test --report tap PATH...

                Runs scripts (a folder means every .pipe file inside it, recursively) and checks their
                `expect` statements against the pipeline just before each one:
                  expect values [1, 2]     expect finished     expect failed "message"
                  expect count 3           expect time 300ms      expect marbles "-a-b-|"
                  expect subscriptions NAME 1   (how many times binding NAME's source was subscribed)
                  expect started 300ms          (when, after the subscription, a future's work began)
                Event output is not printed. Per file, a line `PASS path` or
                `FAIL path:line: expected …, got …`; last, `N passed, N failed`.
                The clock is virtual unless --clock real is given, so time-based exercises run instantly.
                For CI, --report junit FILE.xml also writes JUnit XML (a test case per expect line,
                grouped per file; a failure's text and marble diff in it; the expect lines after the
                first failure as skipped) and --report tap prints TAP version 13 instead of the lines.

                EXIT CODES
                  0    every file passed
                  1    a file failed
                  2    usage error, or a path could not be read
                  65   a script has syntax or static errors
                  130  interrupted by Ctrl-C (SIGINT): no total is printed
                """
        case "repl":
            return """
                plumb [repl]

                The interactive shell: type a pipeline and watch its events. Tab completes operators,
                sources, bindings, :commands and file names after :load; Up and Ctrl-R recall history
                (saved in $PLUMB_HISTORY, default $HOME/.plumb_history; one that cannot be written is
                reported at start and nothing is saved). Ctrl-C cancels the running pipeline
                (at once, even a synchronous source in the middle of its values; the session, bindings and
                history stay) or clears the line; Ctrl-D on an empty line quits. `&` runs a background job.
                When standard input is not a terminal, statements are read from it without a prompt,
                and Ctrl-C stops them as it stops `plumb run`. A `:load`ed script may not load itself
                (directly or through others) and nests at most 32 deep; its `:quit` ends the load only.
                """
        case "lsp":
            return """
                plumb lsp

                The Language Server Protocol over standard input and output, for editors: diagnostics
                as you type (the id as the code, help as related information), fix-its as quick fixes,
                hover (an entry's signature, summary, Combine equivalent, example and the example's marble
                diagram; a binding's type), completion (operators after |, sources and bindings at a
                statement's start, argument labels, :commands),
                document symbols (the let bindings), go to definition and inlay hints (each stage's
                output type). Configure the editor to start `plumb lsp` for *.pipe files (README.md).

                EXIT CODES
                  0    `exit` after `shutdown`
                  1    `exit`, or the end of input, without `shutdown`
                """
        case "serve":
            return """
                plumb serve [DIR] [--host H] [--port N] [--state DIR] [--qr | --no-qr]

                Hosts a workshop room: learners need only a browser. Prints the learners' address (with
                the room's token; on a terminal also as a QR code) and the teacher's (with the teacher's
                key), then one line per request (method, path without the token, status, time), until
                Ctrl-C or SIGTERM, which end every live stream and stop the server. Learners give a name
                and get the exercises of DIR (default Examples/workshop) with their lessons, Check (the
                checker of `plumb learn`), hints one at a time and a playground; the teacher sees every
                learner's progress live (server-sent events) and can present a pipeline on every
                learner's page. Each run is a child plumb on the virtual clock, limited to 5 s of real
                time, 2,000 events and 512 MiB of data memory; shell commands (:load, :export …) are
                refused.

                OPTIONS
                  --host H       the IPv4 or IPv6 address to listen on (default 127.0.0.1; 0.0.0.0 or :: for
                                 the room's network, ::1 for IPv6 loopback)
                  --port N       the port (default 8080; 0 lets the system choose)
                  --state DIR    where progress and the room's secrets are kept (default DIR/.plumb-room)
                  --qr           draw the learners' address as a QR code even when standard output is not
                                 a terminal
                  --no-qr        no QR code, even on a terminal

                EXIT CODES
                  2    the folder has no exercises, the address cannot be used, or the state cannot be kept
                """
        case "help":
            return """
                plumb help [COMMAND]
                plumb help diagnostics | ID
                plumb help --markdown [DIR]

                Describes plumb, or one of its commands: run, check, test, repl, lsp, serve. `diagnostics` lists
                every error and warning plumb can report, by code and name (`E101  unterminated-string
                (lexer)`); a code or a name (`E302`, `unknown-operator`) describes that one.
                --markdown writes the reference instead: DIR/Operators.md (default Docs) with a section
                per source, operator and terminal (signature, summary, Combine equivalent, example, the
                example's events and marble diagram, run on the virtual clock), the diagram as a
                picture beside it (DIR/diagrams/NAME.svg), and the diagnostics by code.
                """
        case "completions":
            return """
                plumb completions bash|zsh|fish

                Prints the completion script for a shell: subcommands, options, the values of --clock
                and --format, .pipe files for run, check and swift, folders for test and learn, help
                topics. Scripts/install writes all three where the shells look for them; by hand:
                  plumb completions bash > ~/.local/share/bash-completion/completions/plumb
                  plumb completions zsh > ~/.zfunc/_plumb        (a folder on $fpath)
                  plumb completions fish > ~/.config/fish/completions/plumb.fish
                """
        case "diagnostics": return diagnostics
        default:
            if let id = DiagnosticID.anyNamed(name) { return diagnostic(id) }
            return overview
        }
    }
}

extension HelpText {
    /// Every diagnostic, one a line: `E101  unterminated-string  (lexer)`.
    static var diagnostics: String {
        var lines = ["Diagnostics (E: error, W: warning); `plumb help ID` or `:help ID` describes one.", ""]
        lines += DiagnosticID.everyLayer.map(line)
        return lines.joined(separator: "\n")
    }

    /// `E101  unterminated-string  (lexer)`.
    static func line(_ id: DiagnosticID) -> String { "\(id.code)  \(id.name)  (\(id.layer))" }

    /// One diagnostic: its line, what it is, and when it is reported.
    static func diagnostic(_ id: DiagnosticID) -> String {
        [line(id), "  \(id.severity == .warning ? "a warning" : "an error"), \(when(id))"].joined(separator: "\n")
    }

    /// When a diagnostic is reported: `found by the lexer, before anything of the text runs`.
    static func when(_ id: DiagnosticID) -> String {
        switch id.layer {
        case "lexer", "parser", "checker": "found by the \(id.layer), before anything of the text runs"
        case "session": "found when a statement is performed"
        case "build": "found when a pipeline is built, before it is subscribed"
        case "evaluation": "raised while a closure runs: the pipeline fails with it"
        case "room": "reported by `plumb serve` to a learner's page"
        default: "reported by the \(id.layer)"
        }
    }

    /// Whether `topic` is something `plumb help` can describe besides a command.
    static func isTopic(_ topic: String) -> Bool {
        topic == "diagnostics" || DiagnosticID.anyNamed(topic) != nil
    }

    /// What an unknown help topic may have meant: commands, `diagnostics` and diagnostic names.
    static func topics(commands: [String]) -> [String] {
        commands + ["diagnostics"] + DiagnosticID.everyLayer.map(\.name)
    }
}
