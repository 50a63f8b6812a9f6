import Testing
@testable import PipeLanguage

@Suite struct CatalogTests {
    @Test("every entry has a name, summary, Combine equivalent and example; names and aliases are unique")
    func metadata() {
        var seen = Set<String>()
        for entry in Catalog.entries {
            #expect(!entry.summary.isEmpty && !entry.combine.isEmpty && !entry.example.isEmpty && !entry.signature.isEmpty, "\(entry.name)")
            #expect(entry.signature.hasPrefix(entry.name), "\(entry.name): \(entry.signature)")
            for name in [entry.name] + entry.aliases {
                #expect(seen.insert(name).inserted, "duplicate name \(name)")
                #expect(Catalog.entry(named: name)?.name == entry.name)
            }
        }
        #expect(Catalog.entry(named: "take")?.name == "prefix")
        #expect(Catalog.entry(named: "skip")?.name == "dropFirst")
        #expect(Catalog.entry(named: "nope") == nil)
    }

    @Test("every source and operator builds a publisher from its example's arguments; the example uses the entry")
    func everyEntryBuilds() throws {
        for entry in Catalog.entries where entry.kind != .terminal {
            let session = Session(runtime: Runtime(clock: .virtual))
            let (statements, diagnostics) = session.compile(entry.example, file: "example")
            #expect(!diagnostics.contains { $0.severity == .error }, "\(entry.name): \(diagnostics)")
            // An example may be several lines (a binding, its sends and uses): each is performed.
            let names = statements.flatMap { $0.checked?.stages.compactMap(\.entry?.name) ?? [] }
            #expect(names.contains(entry.name), "\(entry.name)'s example does not use it: \(names)")
            var ran = false
            for statement in statements {
                guard case .success(let action) = session.execute(statement) else {
                    Issue.record("\(entry.name): the example does not execute")
                    break
                }
                if case .run(let pipeline) = action {
                    ran = true
                    #expect(throws: Never.self, "\(entry.name)'s builder threw") { _ = try pipeline.makePublisher() }
                }
            }
            #expect(ran, "\(entry.name): the example runs no pipeline")
        }
    }

    @Test("signatures read from the parameters, with labels and placeholders")
    func signatures() {
        #expect(Catalog.entry(named: "scan")?.signature == "scan INITIAL { $0 + $1 }")
        #expect(Catalog.entry(named: "flatMap")?.signature == "flatMap [maxPublishers: N] { pipeline over $0 }")
        #expect(Catalog.entry(named: "prefix")?.signature == "prefix COUNT\nprefix while: { $0 < 3 }\nprefix untilOutputFrom: (publisher)")
        #expect(Catalog.entry(named: "throttle")?.signature == "throttle D [latest: BOOL]")
    }

    @Test("suggestions by edit distance: closest under 4 wins")
    func suggestions() {
        #expect(Catalog.suggestion(for: "retyr", among: Catalog.names) == "retry")
        #expect(Catalog.suggestion(for: "fltMap", among: Catalog.names) == "flatMap")
        #expect(Catalog.suggestion(for: "xyzzyplugh", among: Catalog.names) == nil)
        #expect(Catalog.suggestion(for: "", among: Catalog.names) == nil)
    }

    @Test("Value prints as the language writes it")
    func valueDescription() {
        #expect(
            Value.array([.int(1), .double(2.5), .string("h\"i\n"), .bool(true), .null, .double(3)]).description
                == "[1, 2.5, \"h\\\"i\\n\", true, nil, 3.0]")
        #expect(Value.int(1) == Value.double(1.0))
        #expect(Set([Value.int(1), .double(1.0)]).count == 1)
    }
}
