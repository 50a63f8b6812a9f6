import Synchronization
import Testing
@testable import PipeLanguage

/// Every language diagnostic id is explained (`plumb help E331`), and every example is true: it
/// reports its id, and its fix reports nothing.
@Suite struct ExplanationTests {
    /// Language ids no `.pipe` snippet can show, each with the reason; their explanations say
    /// how they arise instead.
    static let withoutExample: [String: String] = [
        "E105": "an invisible control character inside a string: an example would not show it",
        "E117": "an invisible control character outside a string: an example would not show it",
        "E118": "invalid UTF-8 comes from a file's bytes; a Swift String cannot hold it",
        "E201": "a limit: 100 errors in one text",
        "E216": "a limit: a pipeline of 1,000 stages",
        "E225": "a limit: nesting 64 levels deep",
        "E226": "a limit: an expression 128 operators deep",
        "E325": "every constant's failure carries its own E6xx id, which is reported instead",
        "E401": "the checker reports E313 first; only a session changed between compile and execute meets it",
        "E406": "reported by :type, a shell command, not by a script",
        "E407": "reported by :type, a shell command, not by a script",
        "E411": "a send that no reader takes, found while a script runs: the shell reports it (ChannelSendTests)",
        "E410": "reported by :compare and plumb compare, which plan two runs of a pipeline, not by running a script",
        "E408": "a fallback: every failure to make an eager binding known today has its own id",
        "E409": "needs a :reset between compiling a statement and performing it",
        "E501": "a fallback: the checker reports a missing argument (E308) first",
        "E616": "a limit: a string value of 16 MiB",
        "E617": "a limit: an array value of 1,000,000 elements",
        "E618": "a fallback: the lexer and the checker refuse $2 and above first",
    ]

    /// Ids whose example also reports another id, and why.
    static let companions: [String: Set<String>] = [
        // An invalid interpolation is reported with the lexer's error inside it.
        "E232": ["E116"],
        // The let's own error is reported above the use of the binding.
        "E328": ["E301"],
        // The checker warns about a todo, and running it fails there.
        "W904": ["E507"],
        "E507": ["W904"],
    ]

    @Test("every diagnostic id has an explanation with a meaning, and an example and its fix or how it arises")
    func everyIDExplained() {
        for id in DiagnosticID.all {
            guard let explanation = id.explanation else {
                Issue.record("\(id) has no explanation")
                continue
            }
            #expect(!explanation.meaning.isEmpty, "\(id)")
            #expect((explanation.example != nil) == (explanation.fix != nil), "\(id): an example needs its fix")
            #expect((explanation.example != nil) != (explanation.arises != nil), "\(id): an example, or how it arises")
        }
    }

    @Test("the ids without an example are exactly those listed here, each with its reason")
    func withoutExampleListed() {
        let actual = Set(DiagnosticID.all.filter { $0.explanation?.example == nil }.map(\.code))
        #expect(actual == Set(Self.withoutExample.keys))
    }

    @Test(
        "an example reports its id (and only its listed companions), and its fix reports nothing",
        arguments: DiagnosticID.all.filter { $0.explanation?.example != nil })
    func exampleReportsItsID(_ id: DiagnosticID) throws {
        let explanation = try #require(id.explanation)
        let reported = Self.ids(reportedBy: try #require(explanation.example))
        #expect(reported.contains(id.code), "\(id): the example reports \(reported.sorted())")
        #expect(reported.subtracting([id.code]).isSubset(of: Self.companions[id.code] ?? []), "\(id): the example reports \(reported.sorted())")
        let fixed = Self.ids(reportedBy: try #require(explanation.fix))
        #expect(fixed.isEmpty, "\(id): the fix reports \(fixed.sorted())")
    }

    @Test("plumb help E331 shows the example, the fix and the Combine fact")
    func renderedText() throws {
        let id = try #require(DiagnosticID.named("kinds-do-not-join"))
        let text = try #require(id.explanation).text(heading: "E331  kinds-do-not-join  (checker)", when: "found by the checker")
        #expect(text.contains("    just 1 | merge (just \"a\")"))
        #expect(text.contains("Fixed:\n\n    just 1 | merge (just 2)"))
        #expect(text.contains("In Combine: one publisher has one Output type"))
    }

    @Test("the Markdown form, for an editor's hover, fences the example and the fix")
    func markdown() throws {
        let id = try #require(DiagnosticID.named("E331"))
        let text = try #require(id.explanation).markdown(heading: id.description)
        #expect(text.hasPrefix("**E331 kinds-do-not-join**\n\n"))
        #expect(text.contains("```pipe\njust 1 | merge (just \"a\")\n```"))
        #expect(text.contains("Fixed:\n\n```pipe\njust 1 | merge (just 2)\n```"))
    }

    /// The ids `text` reports on a fresh virtual-clock session: its static diagnostics and, when
    /// it has no static errors, the failures of the pipelines it runs.
    static func ids(reportedBy text: String) -> Set<String> {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "example")
        var ids = Set(diagnostics.map(\.id.code))
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return ids }
        for statement in statements {
            switch session.execute(statement) {
            case .failure(let diagnostic): ids.insert(diagnostic.id.code)
            case .success(.run(let pipeline)):
                let failures = Mutex<[String]>([])
                let done = Atomic<Bool>(false)
                let run = pipeline.start(trace: false) { event in
                    switch event {
                    case .failed(let error):
                        if let id = error.id { failures.withLock { $0.append(id.code) } }
                        done.store(true, ordering: .sequentiallyConsistent)
                    case .finished, .cancelled: done.store(true, ordering: .sequentiallyConsistent)
                    default: break
                    }
                }
                session.runtime.driveVirtualTime { done.load(ordering: .sequentiallyConsistent) }
                withExtendedLifetime(run) {}
                ids.formUnion(failures.withLock { $0 })
            case .success: break
            }
        }
        return ids
    }
}
