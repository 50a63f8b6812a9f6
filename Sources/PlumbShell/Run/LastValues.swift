import Foundation
import PipeLanguage

/// `_` and `_N`: after each foreground run the shell binds `_` to a source of that run's values
/// (`_ | map { $0 * 2 }`), and when background job N ends, `_N` to its values, as IPython's `_`
/// and `_N` name earlier results. They are ordinary bindings (`let _ = from [1, 2]`), so the
/// language needs nothing new, a script that uses them runs the same under `plumb test`, and a
/// person's own `let _ = …` is replaced at the next run.
///
/// The component owns what each binding stands for (for `:bindings`); the session it binds in
/// comes with each call, since `:clock` and `:reset` replace it.
///
/// ```swift
/// let values = LastValues()
/// values.bind("_", of: record, from: "the last run", session: session)
/// values.described["_"]   // "the last run's 3 values"
/// ```
final class LastValues {
    /// Past this many values a run's `_` fails with a message instead of replaying them (the
    /// values are written out as a literal and checked like typed text).
    static let maxReplayedValues = 10_000

    /// What each binding the shell made stands for (`_`: "the last run's 3 values").
    private(set) var described: [String: String] = [:]

    /// The names bound to a placeholder (no run or job has given them values yet): a statement
    /// that runs with one of them is an error, never a run over no values.
    private(set) var pending: Set<String> = []

    /// Forgets them all (a new session has none of the bindings).
    func forget() {
        described = [:]
        pending = []
    }

    /// Binds `name` to a source of `record`'s values (or, when they cannot be replayed, to a
    /// source that fails saying why), and remembers what it stands for, for `:bindings`.
    func bind(_ name: String, of record: RunRecord, from what: String, session: Session) {
        let count = record.count == 1 ? "1 value" : "\(record.count) values"
        let text: String
        if record.valuesTruncated || record.values.count > Self.maxReplayedValues {
            let reason = "\(what) had \(count); \(name) replays at most \(Self.maxReplayedValues)"
            text = "let \(name) = fail " + Value.string(reason).description
        } else {
            text = "let \(name) = from " + ExpectationCheck.describe(record.values)
        }
        let compiled = session.compile(text, file: "<\(name)>")
        guard compiled.diagnostics.allSatisfy({ $0.severity != .error }), let statement = compiled.statements.first,
            case .success = session.execute(statement)
        else { return }
        described[name] = "\(what)'s \(count)"
        pending.remove(name)
    }

    /// Binds each `_` or `_N` that `text` names and the session lacks to an empty source, so the
    /// text compiles before the run or job that gives it values has happened (a script's
    /// `s | take 2 &` … `_1 | sink`).
    func bindPlaceholders(in text: String, session: Session) {
        guard text.contains("_") else { return }
        for name in Self.valueNames(in: text) where !session.bindingNames.contains(name) {
            let compiled = session.compile("let \(name) = from []", file: "<\(name)>")
            guard let statement = compiled.statements.first, case .success = session.execute(statement) else { continue }
            described[name] = name == "_" ? "no run yet" : "job \(name.dropFirst()) has not ended yet"
            pending.insert(name)
        }
    }

    /// The first placeholder `text` names, with its UTF-8 offset in `text`, or nil when every
    /// `_`/`_N` it names has values.
    func firstPending(in text: String) -> (name: String, offset: Int)? {
        guard !pending.isEmpty, text.contains("_") else { return nil }
        return Self.usedWords(in: text).first { pending.contains($0.word) }.map { ($0.word, $0.offset) }
    }

    /// A person's own `let NAME = …` bound `name`: it is theirs until the next run rebinds it.
    func defined(_ name: String) {
        pending.remove(name)
        described[name] = nil
    }

    /// Why `name` has no values yet, and what to type: job `id` is still running, or there is no
    /// such job.
    static func notReady(_ name: String, jobRunning: Bool) -> String {
        let id = name.dropFirst()
        if id.isEmpty {
            return "`_` has no values yet: no pipeline has run in this session; run one, then `_` replays its values"
        }
        if jobRunning {
            return "`\(name)` has no values yet: job \(id) is still running, and `\(name)` is bound when it ends; "
                + "wait for it (`:jobs` lists it) or stop it with `:cancel \(id)`"
        }
        return "`\(name)` names job \(id), and there is no job \(id): `:jobs` lists the jobs, and `_N` is bound when job N ends"
    }

    /// Whether `text` names `_` or `_N`.
    static func namesValues(_ text: String) -> Bool { text.contains("_") && !valueNames(in: text).isEmpty }

    /// The `_` and `_N` words `text` uses (outside strings, and not the name a `let` binds: a
    /// rough scan that may find more than the language would, which only binds an unused name).
    static func valueNames(in text: String) -> Set<String> {
        Set(usedWords(in: text).map(\.word).filter { $0.first == "_" && $0.dropFirst().allSatisfy(\.isNumber) })
    }

    /// The words of `text` with their UTF-8 offsets, leaving out those inside strings and the
    /// word right after `let` (which binds the name; it does not use it).
    private static func usedWords(in text: String) -> [(word: String, offset: Int)] {
        var words: [(word: String, offset: Int)] = []
        var word = ""
        var previous = ""
        var start = 0
        var offset = 0
        var inString = false
        for character in text + " " {
            if character == "\"" { inString.toggle() }
            if !inString, character.isLetter || character.isNumber || character == "_" {
                if word.isEmpty { start = offset }
                word.append(character)
            } else if !word.isEmpty {
                if previous != "let" { words.append((word, start)) }
                previous = word
                word = ""
            }
            offset += character.utf8.count
        }
        return words
    }
}
