import Foundation
import PipeLanguage
import PlumbJSON

extension Room {
    /// Refuses `:` lines (`:load FILE`, `:export FILE`, `:clock` …): nothing a learner sends
    /// reaches the file system or changes the shell. Nil when there is none.
    public static func refusedCommands(_ text: String) -> JSON? {
        let hosts = ScriptLines(text).hostLines
        guard let first = hosts.first else { return nil }
        let message =
            "':\(first.name)' is a shell command, and the room runs only pipelines, bindings and expect lines (no files are read or written here)"
        let start = UTF16Positions(text).utf16Offset(line: first.line, column: first.column)
        let diagnostic: JSON = .object([
            "id": .string(RoomDiagnostic.commandRefused.code), "name": .string(RoomDiagnostic.commandRefused.name),
            "severity": .string("error"), "line": .int(first.line), "column": .int(first.column), "message": .string(message),
            "start": .int(start), "end": .int(start + first.text.utf16.count),
            "rendered": .string("\(first.line):\(first.column): error[\(RoomDiagnostic.commandRefused.code)]: \(message)\n  \(first.text)"),
        ])
        return .object(["diagnostics": .array([diagnostic])])
    }
}

/// The room's own diagnostics (the 8xx), beside the language's and the shell's: a layer like
/// theirs, so the ids are in the golden list and `plumb help diagnostics`, and no other layer
/// can take their numbers.
public enum RoomCode: Int, DiagnosticCode {
    public static let layer = "room"

    /// A `:command` (`:load`, `:export` …) sent by a learner: nothing a learner sends reaches the
    /// file system or the process.
    case commandNotInRoom = 801
    /// An exercise checked with its `expect` lines changed: they are the check.
    case expectLinesChanged = 802
}

/// The room's diagnostics as the pages show them (code and name).
struct RoomDiagnostic: Sendable {
    let code: String
    let name: String

    init(_ code: RoomCode) {
        self.code = code.id.code
        self.name = code.id.name
    }

    static let commandRefused = RoomDiagnostic(.commandNotInRoom)
    static let expectChanged = RoomDiagnostic(.expectLinesChanged)
}
