import Foundation
import PlumbJSON

/// The room's common mistakes: per exercise, the learners whose last check of it failed (and who
/// have not passed it), grouped by their failure, the first differing expectation normalised
/// (`failure(of:)`), with counts. Each group carries one example answer and no learner's name:
/// the teacher may put it on the projector.
struct MistakeGroups {
    struct Group: Sendable, Equatable {
        let exercise: String
        /// The failure, normalised: what the learners in the group have in common.
        let failure: String
        let count: Int
        /// One learner's text, at most `exampleCharacters`.
        let example: String

        var json: JSON {
            .object(["exercise": .string(exercise), "failure": .string(failure), "count": .int(count), "example": .string(example)])
        }
    }

    /// An example is cut at this many characters (the table goes to the teacher at every change).
    static let exampleCharacters = 4000
    /// A failure's words are cut at this many characters.
    static let failureCharacters = 160
    /// The table carries at most this many groups per exercise (the largest)…
    static let shownPerExercise = 3
    /// …and this many in all, so that a table update stays under about 100 KB whatever the
    /// room typed (40 learners failing 15 exercises each their own way would otherwise be 600
    /// groups of up to 4,000 characters: 2.4 MB to the teacher at every change).
    static let shownInAll = 24

    /// The groups the table carries (`shownPerExercise` per exercise, `shownInAll` in all, in the
    /// order `groups` gives them) and how many it leaves out.
    static func shown(_ groups: [Group]) -> (groups: [Group], leftOut: Int) {
        var perExercise: [String: Int] = [:]
        var kept: [Group] = []
        for group in groups where kept.count < shownInAll {
            perExercise[group.exercise, default: 0] += 1
            if perExercise[group.exercise, default: 0] <= shownPerExercise { kept.append(group) }
        }
        return (kept, groups.count - kept.count)
    }

    /// The groups, exercise by exercise in the workshop's order, the largest group first (ties by
    /// their failure's words).
    static func groups(_ learners: [LearnerRecord], exercises: [String]) -> [Group] {
        var groups: [Group] = []
        for exercise in exercises {
            var answers: [String: [String]] = [:]
            for learner in learners {
                guard let progress = learner.progress[exercise], !progress.passed, let message = progress.lastMessage else { continue }
                answers[failure(of: message), default: []].append(progress.text ?? "")
            }
            let found = answers.map { failure, texts in
                // The example: the shortest answer (ties by text), the same whoever asks.
                let example = texts.min { ($0.count, $0) < ($1.count, $1) } ?? ""
                return Group(exercise: exercise, failure: failure, count: texts.count, example: String(example.prefix(exampleCharacters)))
            }
            groups += found.sorted { ($1.count, $0.failure) < ($0.count, $1.failure) }
        }
        return groups
    }

    /// A check's message normalised to what two learners with the same mistake share: its first
    /// line (the first expectation that failed; the marble diff's detail lines go), a leading
    /// `FILE:LINE:` and `expect failed:` dropped, blanks collapsed, at most `failureCharacters`.
    static func failure(of message: String) -> String {
        let first = message.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
        var words = first.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let prefix = words.firstMatch(of: #/^[^\s:]+\.pipe:\d+(:\d+)?:\s*/#) { words.removeSubrange(prefix.range) }
        if words.hasPrefix("expect failed: ") { words.removeFirst("expect failed: ".count) }
        if words.isEmpty { return "the check failed" }
        return words.count > failureCharacters ? String(words.prefix(failureCharacters - 1)) + "…" : words
    }
}
