import PipeLanguage
import PlumbServer

extension ShellCode {
    /// What `plumb help E7xx` or `:help E7xx` says about this code. The shell's ids come from
    /// commands, files, streams and the machine, not from a `.pipe` text the language checks, so
    /// each says how it arises instead of giving an example.
    var explanation: Explanation {
        switch self {
        case .unknownCommand:
            Explanation(
                "A line starting with ':' names a shell command, and no command has this name. `:help` lists them.",
                arises: "`:hepl` at the prompt or in a script; the message suggests the closest command.")
        case .commandUsage:
            Explanation(
                "The command was given arguments it does not take; the message shows its usage.",
                arises: "`:clock sometimes` (the clock is real or virtual), `:marbles maybe`; `:help COMMAND` shows a command's arguments.")
        case .noSuchJob:
            Explanation(
                "A job command named a background job that does not exist (or has ended and been removed). `:jobs` lists the jobs.",
                arises: "`:cancel 7` or `:edit 7` when no job 7 is running.")
        case .nothingRecorded:
            Explanation(
                "The command shows a past run, and there is none to show yet.",
                arises: "`:marbles` or `:export` before any pipeline has run, or after a run made with :marbles off.")
        case .loadCycle:
            Explanation(
                "A script loads itself, directly or through scripts it loads: loading would never end.",
                arises: "a.pipe holding `:load b.pipe` while b.pipe holds `:load a.pipe`; keep the shared lines in a third script both load.")
        case .loadTooDeep:
            Explanation(
                "`:load` nests at most 32 scripts deep.",
                arises: "a chain of scripts each loading the next, more than 32 long.")
        case .cannotTranslateLoad:
            Explanation(
                "`plumb swift` translates one script to Swift; a `:load` in it would bring in another file's pipelines, which the translation does not follow.",
                arises: "`plumb swift a.pipe` where a.pipe holds `:load b.pipe`: translate b.pipe on its own, or copy its lines in.")
        case .unknownHelpTopic:
            Explanation(
                "`:help` knows the shell's commands, every source, operator and terminal, and the diagnostics by id or name; the topic is none of them.",
                arises: "`:help flatMapp` (the message suggests `flatMap`), `:help E999`; `:ops` lists the operators, `:help diagnostics` the ids.")
        case .unreadableFile:
            Explanation(
                "A file plumb was asked to read cannot be read: it does not exist, is a folder, is not readable, or is too large.",
                arises: "`plumb run missing.pipe`, `:load missing.pipe`.")
        case .invalidInputLine:
            Explanation(
                "A line of standard input is not text plumb can read (invalid UTF-8, a NUL byte, or a line too long); it is skipped and the others run.",
                arises: "binary data piped into plumb (`cat image.png | plumb`).")
        case .unreadableInput:
            Explanation(
                "Standard input cannot be read at all: it is a folder, or a closed descriptor.",
                arises: "`plumb < /` or a parent process that closed plumb's standard input.")
        case .noScripts:
            Explanation(
                "`plumb test` was given a path that holds no .pipe scripts.",
                arises: "`plumb test missing/` or a folder without .pipe files.")
        case .cannotWriteFile:
            Explanation(
                "A file plumb was asked to write cannot be written: its folder is missing or read-only, or the disk is full.",
                arises: "`:save /no/such/folder/s.pipe`, `:export` or `plumb help --markdown` into a read-only folder.")
        case .cannotWriteOutput:
            Explanation(
                "Writing to standard output failed (other than its reader going away, which ends plumb quietly with status 141): the running pipeline is cancelled and plumb exits with status 1.",
                arises: "`plumb run x.pipe > /dev/full`, or output to a full disk.")
        case .commandLineUsage:
            Explanation(
                "plumb's command line has an unknown option, a missing value or a misplaced argument; exit status 2. `plumb --help` shows the usage.",
                arises: "`plumb --clock sometimes run x.pipe`, `plumb run` without a file.")
        case .resourceLimit:
            Explanation(
                "The machine gives plumb too little to work with: too few file descriptors (plumb needs 64) or a pipe it cannot create.",
                arises: "`ulimit -n 10; plumb`, when the hard limit is below 64.")
        case .workshopProblem:
            Explanation(
                "`plumb learn` or `plumb serve` cannot find or read the workshop's exercises, or cannot keep the room's state.",
                arises:
                    "`plumb learn` in a folder without exercises and none installed (Scripts/install installs them), or a state folder that cannot be written.")
        case .noPausedRun:
            Explanation(
                "The command acts on a paused, stepped run, and none is paused. `:step PIPELINE` starts one.",
                arises: "`:next` or `:continue` before any `:step`.")
        case .steppingNeedsVirtualClock:
            Explanation(
                "`:step` moves time by hand, which only the virtual clock allows; on the real clock time moves on its own.",
                arises: "`:step just 1 | delay 1s` on the real clock: `:clock virtual` first (it clears the bindings), or start plumb with --clock virtual.")
        case .runIsPaused:
            Explanation(
                "A stepped run is paused, and running another pipeline in the foreground would move the shared virtual clock under it.",
                arises: "a pipeline typed while a `:step` run is paused: `:continue` or `:stop` it first, or run the new one with '&'.")
        case .noSuchStage:
            Explanation(
                "The paused run has no stage with this number or name; the message lists its stages.",
                arises: "`:break 9` (or :watch 9) on a run of three stages.")
        case .notAPipeline:
            Explanation(
                "`:step` (and the commands like it) runs one pipeline in the foreground; a let, a send, an expect or a '&' job is not one.",
                arises: "`:step let t = just 1`.")
        case .editorFailed:
            Explanation(
                "`:edit` opens $VISUAL or $EDITOR on the text, and the editor could not start, failed, or left nothing to read back. Nothing is run.",
                arises: "EDITOR set to a program that is not installed, or an editor that exits with a non-zero status.")
        case .needsTerminal:
            Explanation(
                "The command works at the interactive prompt (it takes over the terminal), not in a script or piped input.",
                arises: "`:edit` or `:watch` in a script run with plumb run, or in `echo ':edit' | plumb`.")
        case .nothingToEdit:
            Explanation(
                "`:edit` edits the last line typed (or job N's pipeline), and there is none yet.",
                arises: "`:edit` as the first line of a session.")
        case .historyNotSaved:
            Explanation(
                "The REPL's history file cannot be written, so this session's lines will not be remembered. The REPL works on.",
                arises: "PLUMB_HISTORY (or $HOME/.plumb_history) in a folder that does not exist or cannot be written.")
        }
    }
}

extension RoomCode {
    /// What `plumb help E8xx` says about this code. The room's codes are declared in PlumbServer,
    /// which the shell uses; their explanations live here so PlumbServer needs no help text.
    var explanation: Explanation {
        switch self {
        case .commandNotInRoom:
            Explanation(
                "In the room (`plumb serve`), a learner's page sends pipelines only: ':' commands (:load, :export, :clock …) reach the file system or the process, so the room refuses them.",
                arises: "a learner typing `:load x.pipe` on the room's page.")
        case .expectLinesChanged:
            Explanation(
                "An exercise's `expect` lines are the check of the answer; an answer that changes them is refused, so no answer passes by weakening the check.",
                arises: "a learner editing or deleting an exercise's expect lines on the room's page.")
        }
    }
}

extension DiagnosticID {
    /// The explanation of an id of any layer: the language's, the shell's or the room's.
    var anyExplanation: Explanation? {
        switch layer {
        case ShellCode.layer: ShellCode(rawValue: Self.number(code))?.explanation
        case RoomCode.layer: RoomCode(rawValue: Self.number(code))?.explanation
        default: explanation
        }
    }

    /// `E701` → 701.
    private static func number(_ code: String) -> Int { Int(code.dropFirst()) ?? 0 }
}
