import PipeLanguage

/// The parts of a translation put together as the shell prints them (`PlumbShell`'s
/// `SessionText`), so these tests can read the code as one text.
extension TranslatedSwift {
    /// The helpers, then the code.
    var joined: String { (helpers.isEmpty ? "" : helpers.joined(separator: "\n\n") + "\n\n") + code.joined(separator: "\n") }
    /// The imports, then `joined`.
    var file: String { importLines.joined(separator: "\n") + "\n\n" + joined }
}
