import PipeLanguage
import Testing

@testable import PlumbShell

/// The shell lays out the session's data answers: `:type`'s table, `:bindings`' list, `:swift`'s
/// file. In process, from the data `Session` gives.
@Suite struct SessionTextTests {
    private let session = Session(runtime: Runtime(clock: .virtual))

    @Test(":type's table: stages padded to the longest (at most 40), arrows, the whole type")
    func typeTable() throws {
        let table = SessionText.typeTable(try session.types(of: "just 1 | filter { $0 > 0 } | map { $0 == 1 }").get())
        #expect(
            table == """
                  just 1             -> Int, Failure: Never
                | filter { $0 > 0 }  -> Int, Failure: Never
                | map { $0 == 1 }    -> Bool, Failure: Never
                AnyPublisher<Bool, Never>
                """)
        let long = "map { \"a string much longer than the forty columns the table pads to\" }"
        let wide = SessionText.typeTable(try session.types(of: "just 1 | \(long) | count").get())
        #expect(
            wide.split(separator: "\n").map(String.init)[0...2] == [
                "  just 1" + String(repeating: " ", count: 34) + "  -> Int, Failure: Never",
                "| \(long)  -> String, Failure: Never",
                "| count" + String(repeating: " ", count: 35) + "  -> Int, Failure: Never",
            ])
    }

    @Test(":type's notes: where Swift traps, and where there is no faithful Swift form")
    func typeNotes() throws {
        let traps = SessionText.typeTable(try session.types(of: "from [1, 2] | map { $0 * 10 }").get())
        #expect(
            traps.hasSuffix(
                "AnyPublisher<Int, Never>\nnote: where this Swift traps (an Int overflow, a division by zero), plumb fails the pipeline instead: `map { $0 * 10 }`"
            ))
        let mixed = SessionText.typeTable(try session.types(of: "just 1 | append 2.5").get())
        #expect(
            mixed.hasSuffix(
                "AnyPublisher<Value, Never>\nnote: no faithful Swift form (values of mixed kinds (Swift's Output must be one type)): these are plumb's own types"
            ))
    }

    @Test(":bindings: names padded to the longest, then pipeline : type; a hint when there are none")
    func bindingList() {
        #expect(SessionText.bindingList([], style: .plain) == "no bindings yet: let NAME = PIPELINE")
        for statement in session.compile("let ticks = interval 100ms | take 5\nlet s = subject", file: "<repl>").statements {
            _ = session.execute(statement)
        }
        #expect(
            SessionText.bindingList(session.bindingSummaries(), style: .plain) == """
                ticks  interval 100ms | take 5 : AnyPublisher<Int, Never>
                s      subject : AnyPublisher<Value, Error>
                """)
    }

    @Test(":swift: imports, helpers, then the statement; plumb swift FILE: helpers, then the code")
    func swift() throws {
        let plain = try session.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }", form: .statement).get()
        #expect(
            SessionText.swiftFile(plain) == """
                import Reactive

                let cancellable = [1, 2, 3].publisher.map { $0 * 10 }
                    .sink { print($0) }
                """)
        let flaky = try session.swiftTranslation(of: "just 1 | asyncMap flaky 2 | retry 3").get()
        let code = SessionText.swiftCode(flaky)
        #expect(code.hasPrefix("// MARK: helper pipeError\n"))
        #expect(code.contains("}\n\n// MARK: helper flaky\n"))
        #expect(code.hasSuffix("\n\n" + flaky.code.joined(separator: "\n")))
        #expect(SessionText.swiftFile(flaky) == "import Foundation\nimport Reactive\n\n" + code)
    }

    /// Issue 39: an async pipeline's `:swift` is a task iterating the sequence; swift-async-algorithms'
    /// operators want a Sendable base and publishers are not Sendable, hence `@preconcurrency`.
    @Test(":swift on an async pipeline: @preconcurrency import Reactive, ReactiveAsync, a task with for await")
    func asyncSwift() throws {
        let debounced = try session.swiftTranslation(of: "from [1, 2, 3] | values | debounce 100ms", form: .statement).get()
        #expect(
            SessionText.swiftFile(debounced) == """
                @preconcurrency import Reactive
                import ReactiveAsync

                let task = Task {
                    let sequence = [1, 2, 3].publisher.values.debounce(for: .milliseconds(100))
                    for await value in sequence {
                        print(value)
                    }
                }
                """)
    }
}
