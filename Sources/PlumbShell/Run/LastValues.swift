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

    /// Forgets them all (a new session has none of the bindings).
    func forget() { described = [:] }

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
        }
    }

    /// Whether `text` names `_` or `_N`.
    static func namesValues(_ text: String) -> Bool { text.contains("_") && !valueNames(in: text).isEmpty }

    /// The `_` and `_N` words of `text` (outside strings: a rough scan that may find more than
    /// the language would, which only binds an unused name).
    static func valueNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        var word = ""
        var inString = false
        for character in text + " " {
            if character == "\"" { inString.toggle() }
            if !inString, character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if word.first == "_", word.dropFirst().allSatisfy(\.isNumber) { names.insert(word) }
            word = ""
        }
        return names
    }
}
