import Testing

@testable import PipeLanguage

/// The Swift `:swift` prints for a pipeline, with a fresh session.
private func swift(_ text: String) -> String {
    switch Session(runtime: Runtime(clock: .virtual)).swiftTranslation(of: text) {
    case .success(let swift): swift.joined
    case .failure(let d): "error: \(d.message)"
    }
}

/// The task `:swift` writes for a pipeline that ends on the async side.
private func task(_ sequence: String, throwing: Bool = false) -> String {
    "let task = Task {\n    let sequence = \(sequence)\n    for \(throwing ? "try " : "")await value in sequence {\n        print(value)\n    }\n}"
}

/// Issue 39: `:swift` on async pipelines writes async/await code. The crossings go by their names
/// (`.values`, reference article 002's stream bridge as a helper, `.publisher` back) and each twin
/// by the name swift-async-algorithms (its guides: Debounce.md, Throttle.md, Merge.md, Zip.md,
/// CombineLatest.md, AdjacentPairs.md, Chunked.md) or the standard library gives it, so the code
/// compiles with `import ReactiveAsync` as with `import AsyncAlgorithms`. `Scripts/check-swift`
/// builds and runs these programs and compares their events with plumb's.
@Suite struct AsyncSwiftTests {
    @Test(
        "stages after values are the standard library's and swift-async-algorithms' operators, iterated in a task",
        arguments: [
            ("from [1, 2] | values | map { $0 + 1 }", "[1, 2].publisher.values.map { $0 + 1 }"),
            ("from 1...6 | values | filter { $0 % 2 == 0 }", "(1...6).publisher.values.filter { $0 % 2 == 0 }"),
            ("from [1, -1] | values | compactMap { $0 > 0 ? $0 : nil }", "[1, -1].publisher.values.compactMap { $0 > 0 ? $0 : nil }"),
            ("from 1...6 | values | dropFirst 2 | prefix 3", "(1...6).publisher.values.dropFirst(2).prefix(3)"),
            ("from [1, 1, 2] | values | removeDuplicates", "[1, 1, 2].publisher.values.removeDuplicates()"),
            // Debounce.md: debounce(for:tolerance:clock:), the continuous clock by default.
            ("from [1, 2, 3] | values | debounce 100ms", "[1, 2, 3].publisher.values.debounce(for: .milliseconds(100))"),
            // Throttle.md names it throttle; the package ships it as _throttle (AsyncThrottleSequence.swift).
            (
                "from [1, 2, 3] | values | throttle 100ms latest: true",
                "[1, 2, 3].publisher.values._throttle(for: .milliseconds(100), latest: true)"
            ),
            ("from 1...4 | values | adjacentPairs", "(1...4).publisher.values.adjacentPairs().map { [$0, $1] }"),
            ("from 1...5 | values | chunks 2", "(1...5).publisher.values.chunks(ofCount: 2)"),
            // Merge.md, Zip.md, CombineLatest.md: free functions; the argument crosses with .values.
            ("from [1, 2] | values | merge (just 3)", "merge([1, 2].publisher.values, Just(3).values)"),
            ("from [1, 2] | values | zip (from [3, 4])", "zip([1, 2].publisher.values, [3, 4].publisher.values).map { [$0, $1] }"),
            ("just 1 | values | combineLatest (just 2)", "combineLatest(Just(1).values, Just(2).values).map { [$0, $1] }"),
        ])
    func twins(text: String, sequence: String) {
        #expect(swift(text) == task(sequence))
    }

    @Test("a sequence that can throw is iterated with for try await; asyncMap's step is the standard library's async map")
    func throwing() {
        #expect(swift("fail \"down\" | values | map { $0 }").hasSuffix("for try await value in sequence {\n        print(value)\n    }\n}"))
        #expect(
            swift("from [1, 2] | values | asyncMap delay 50 { $0 + 1 }")
                == task(
                    "[1, 2].publisher\n        .values\n        .map { value in\n            try await Task.sleep(for: .milliseconds(50))\n            return value + 1\n        }",
                    throwing: true))
    }

    @Test("stream is reference article 002's bridge, written out as a helper with its buffering policy")
    func stream() {
        let code = swift("from 1...3 | stream newest 2 | map { $0 * 2 }")
        #expect(code.hasPrefix("// MARK: helper stream\nextension Publisher where Output: Sendable {"), "\(code)")
        #expect(code.contains("AsyncThrowingStream(bufferingPolicy: policy) { continuation in"))
        #expect(code.contains("continuation.onTermination = { _ in subscription.cancel() }"))
        #expect(code.hasSuffix(task("(1...3).publisher.stream(bufferingPolicy: .bufferingNewest(2)).map { $0 * 2 }", throwing: true)))
        #expect(swift("from 1...3 | stream | map { $0 }").hasSuffix(task("(1...3).publisher.stream(bufferingPolicy: .unbounded).map { $0 }", throwing: true)))
    }

    @Test("publisher crosses back: Combine's operators again, and a binding of an async pipeline is a publisher")
    func crossingBack() throws {
        #expect(
            swift("from [1, 2] | values | map { $0 + 1 } | publisher | scan 0 { $0 + $1 }")
                == "[1, 2].publisher.values.map { $0 + 1 }.publisher.scan(0) { $0 + $1 }")
        #expect(swift("let x = from [1, 2] | values | map { $0 }") == "let x = [1, 2].publisher.values.map { $0 }.publisher")
        let translated = try Session(runtime: Runtime(clock: .virtual)).swiftTranslation(of: "just 1 | values | map { $0 }").get()
        #expect(translated.imports == ["Reactive", "ReactiveAsync"])
        #expect(translated.importLines == ["@preconcurrency import Reactive", "import ReactiveAsync"])
        #expect(translated.isFaithful)
    }

    @Test("the program runs an async pipeline with runSequence, which prints value lines as plumb does")
    func program() throws {
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(
            of: "from [1, 2] | values | map { $0 + 1 }\nfrom [1, 2] | values | zip (from [\"a\", \"b\"])\n", file: "p.pipe"
        ).get()
        // Publishers are not Sendable (Combine's neither); swift-async-algorithms' operators want
        // Sendable bases: @preconcurrency makes that a warning, as in an app importing Combine.
        #expect(program.contains("\n@preconcurrency import Reactive\nimport ReactiveAsync\n"))
        #expect(program.contains("\nrunSequence {\n    [1, 2].publisher.values.map { $0 + 1 }\n}\n"), "\(program)")
        #expect(
            program.contains(
                "\nrunSequence(show: { \"[\" + $0.0.pipeText + \", \" + $0.1.pipeText + \"]\" }) {\n    zip([1, 2].publisher.values, [\"a\", \"b\"].publisher.values)\n}\n"
            ), "\(program)")
        // A Combine program imports no ReactiveAsync.
        #expect(!(try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: "just 1\n", file: "q.pipe").get()).contains("ReactiveAsync"))
    }

    /// Found by check-swift on the merged main: the channel's catalog example became
    /// `AsyncChannel<Int>().publisher` and `c.send(completion: .finished)`, which do not compile.
    /// An `AsyncChannel` ends with `finish()` (swift-async-algorithms' Channel guide).
    @Test("a channel binding stays an AsyncChannel in a program, and finish is the channel's own")
    func channelProgram() throws {
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(
            of: "let c = channel\nc | map { $0 * 10 } &\nc.send 1\nc.finish\n", file: "c.pipe"
        ).get()
        #expect(program.contains("let c = AsyncChannel<Int>()\n"), "\(program)")
        #expect(program.contains("\nc.finish()\n"), "\(program)")
        #expect(!program.contains("AsyncChannel<Int>().publisher"), "\(program)")
        #expect(!program.contains("c.send(completion:"), "\(program)")
        #expect(program.contains("skipped: 'c' is a channel"), "\(program)")
    }
}
