import Testing

@testable import PipeLanguage

/// Combine methods that are not stages in plumb (`CombineNames`): E302 says what plumb does
/// instead rather than offering a near miss (`store` offered `share`, `eraseToAnyPublisher`
/// nothing), and takes the stage out when the pipeline means the same without it. What each does
/// in Combine is from Combine's reference (`eraseToAnyPublisher()`, `store(in:)`,
/// `assign(to:on:)`, `cancel()`).
@Suite struct CombineNamesTests {
    @Test(
        "a Combine method that can go is E302 at its name, says why, and its fix-it takes the stage out",
        arguments: [
            ("just 1 | 1️⃣eraseToAnyPublisher | map { $0 * 2 }", "eraseToAnyPublisher", "just 1 | map { $0 * 2 }"),
            ("from [1, 2] | map { $0 * 2 } | 1️⃣store", "store", "from [1, 2] | map { $0 * 2 }"),
            ("just 1 | values | 1️⃣eraseToAnyPublisher | map { $0 }", "eraseToAnyPublisher", "just 1 | values | map { $0 }"),
            ("just 1 |\n  1️⃣eraseToAnyPublisher\n  | sink", "eraseToAnyPublisher", "just 1\n  | sink"),
        ])
    func removable(marked: String, name: String, fixed: String) throws {
        let (text, line, column) = unmark(marked)
        let errors = diagnose(text).filter { $0.severity == .error }
        let e = try #require(errors.first, "no error for \(text)")
        #expect(errors.count == 1, "\(errors.map(\.description))")
        #expect(e.id.code == "E302" && e.message == "unknown operator '\(name)'")
        #expect(e.location.line == line && e.location.column == column, "\(e.location)")
        #expect(e.help == CombineNames.entry(named: name)?.instead)
        let fix = try #require(e.fixIts.first)
        #expect(fix.applied(to: text) == fixed)
        #expect(diagnose(fixed).filter { $0.severity == .error }.isEmpty, "the fixed line has errors")
    }

    @Test("assign and cancel say what plumb does instead, with no fix-it and no near miss")
    func notRemovable() throws {
        for name in ["assign", "cancel"] {
            let e = try #require(diagnose("just 1 | \(name)").first)
            #expect(e.id.code == "E302")
            #expect(e.help == CombineNames.entry(named: name)?.instead)
            #expect(e.fixIts.isEmpty, "\(name)")
        }
        // Before CombineNames, `store` offered `share`, which does something else entirely.
        let store = try #require(diagnose("just 1 | store").first)
        #expect(store.help?.contains("share") == false, "\(store.help ?? "")")
    }

    @Test("no entry names a stage: once plumb has one of that name, its entry must go")
    func noStageOfTheName() {
        for entry in CombineNames.entries {
            #expect(Catalog.entry(named: entry.name) == nil, "\(entry.name) is a stage now")
        }
    }
}
