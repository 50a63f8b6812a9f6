import Foundation
import Testing
@testable import PlumbShell

@Suite struct HistoryFileTests {
    @Test("the history file: PLUMB_HISTORY, else $HOME/.plumb_history, else the passwd home")
    func path() {
        #expect(HistoryFile.path(environment: ["PLUMB_HISTORY": "/tmp/h", "HOME": "/home/x"]) == "/tmp/h")
        #expect(HistoryFile.path(environment: ["HOME": "/home/x"]) == "/home/x/.plumb_history")
        #expect(HistoryFile.path(environment: ["PLUMB_HISTORY": "", "HOME": "/home/x"]) == "/home/x/.plumb_history")
        #expect(HistoryFile.path(environment: [:]).hasSuffix("/.plumb_history"))
    }

    @Test("a history path that cannot be written says why; a writable one is fine")
    func problem() throws {
        let folder = try PlumbBinary.folder(["exists.txt": "x"])
        #expect(HistoryFile.problem(at: folder) == "is a directory")
        #expect(HistoryFile.problem(at: folder + "/missing/history") == "no such directory \(folder)/missing")
        #expect(HistoryFile.problem(at: folder + "/exists.txt/history") == "no such directory \(folder)/exists.txt")
        #expect(HistoryFile.problem(at: folder + "/new-history") == nil)
        #expect(HistoryFile.problem(at: folder + "/exists.txt") == nil)
        // A device takes writes it may refuse: /dev/full lost every line without a word.
        #expect(HistoryFile.problem(at: "/dev/full") == "is not a regular file")
        #expect(HistoryFile.problem(at: "/dev/null") == nil)
    }
}
