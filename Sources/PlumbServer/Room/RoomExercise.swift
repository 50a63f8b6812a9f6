import Foundation
import PipeLanguage

/// One exercise as the room serves it: read by `plumb serve` from the workshop folder (the same
/// reading as `plumb learn`), handed to the server as plain data.
public struct RoomExercise: Sendable, Equatable {
    /// `01-map`: the file's name without `.pipe`, and the exercise's id in the API.
    public let name: String
    public let lesson: [String]
    public let hints: [String]
    /// The exercise as shipped, with its `todo`s.
    public let text: String

    public init(name: String, lesson: [String], hints: [String], text: String) {
        self.name = name
        self.lesson = lesson
        self.hints = hints
        self.text = text
    }

    /// What the learner edits: the exercise without its opening comment block (the lesson and
    /// hints, which the page shows beside it). Checked as it is, so a message's line numbers are
    /// the editor's.
    public var code: String {
        let lines = LineIndex.lines(of: text)
        let start =
            lines.firstIndex { line in
                let trimmed = LineIndex.content(of: line).trimmingCharacters(in: .whitespaces)
                return !trimmed.isEmpty && !trimmed.hasPrefix("#")
            } ?? lines.endIndex
        return lines[start...].joined(separator: "\n")
    }

    /// The `expect` lines, in order: a learner's text must keep them as they are, or a check
    /// could be passed by changing what it checks.
    public var expectLines: [String] { Self.expectLines(of: text) }

    static func expectLines(of text: String) -> [String] {
        LineIndex.lines(of: text).map { LineIndex.content(of: $0).trimmingCharacters(in: .whitespaces) }
            .filter { $0 == "expect" || $0.hasPrefix("expect ") }
    }
}
