import Foundation
import Testing

/// Issue "the language, one walk": what a user sees of it on the built binaries.
@Suite struct OneWalkEndToEndTests {
    @Test("plumb check of a 64-level nesting (the cap) is ok; the run emits every level's value")
    func deepNesting() throws {
        var text = "just 1"
        for _ in 0..<64 { text = "just 1 | merge (\(text))" }
        let script = try PlumbBinary.script(text + "\nexpect count 65\n")
        let check = try PlumbBinary.run(["check", script])
        #expect(check.status == 0, "\(check)")
        let test = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(test.status == 0, "\(test)")
    }

    @Test("a binding that names itself builds over its old value (no crash): d emits 2")
    func selfBinding() throws {
        let script = try PlumbBinary.script("let d = just 1\nlet d = d | map { $0 + 1 }\nd\nexpect values [2]\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(result.status == 0, "\(result)")
    }

    @Test("plumb-bench --json without a plumb binary: a null result and a note, exit 0")
    func benchWithoutBinary() throws {
        let plumb = try #require(PlumbBinary.url)
        let bench = plumb.deletingLastPathComponent().appendingPathComponent("plumb-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "plumb-bench is not built next to plumb")
        let running = try RunningPlumb(
            binary: bench, arguments: ["--json", "--filter", "startup"], input: nil,
            environment: ["PLUMB_BINARY": "/nonexistent/plumb"], directory: nil)
        let result = try running.finish(within: 30)
        #expect(result.status == 0, "\(result)")
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result.stdout)")
        #expect(object["ns_per_op"] is NSNull)
        #expect((object["notes"] as? [String])?.first?.contains("plumb binary not found") == true)
    }

    @Test(":trace on a real clock names threads people can read")
    func traceThreadNames() throws {
        let result = try PlumbBinary.run([], input: ":trace on\ninterval 10ms | take 1 | asyncMap delay 5\n")
        #expect(result.status == 0, "\(result)")
        let names = Set(
            result.stdout.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("│"), let open = line.lastIndex(of: "["), line.hasSuffix("]") else { return nil }
                return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
            })
        #expect(!names.isEmpty, "\(result)")
        #expect(names.isSubset(of: ["main", "queue:runtime", "queue:global"]), "\(names)")
        #expect(names.contains("queue:runtime"))
    }
}

/// The cap on what a pipeline builds holds on the thread a user's pipeline subscribes on.
@Suite struct DepthCapEndToEndTests {
    @Test(
        "at the cap, traced or not, the deepest chains run to the end (no stack overflow)",
        arguments: [
            "just 0" + String(repeating: " | map { $0 + 1 }", count: 999) + "\nexpect values [999]\n",
            ":trace on\njust 0" + String(repeating: " | map { $0 + 1 }", count: 999) + "\nexpect values [999]\n",
            ":trace on\njust 0" + String(repeating: " | flatMap { just $0 + 1 }", count: 499) + "\nexpect values [499]\n",
            "let a0 = just 0\n" + (1...999).map { "let a\($0) = a\($0 - 1) | map { $0 + 1 }\n" }.joined() + "a999\nexpect values [999]\n",
        ])
    func deepestRun(_ text: String) throws {
        let script = try PlumbBinary.script(text)
        let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(result.status == 0, "\(result.status) \(result.stderr.prefix(500))")
    }

    @Test("2,500 stages (past the cap) is a positioned error, exit 65, not a crash")
    func pastTheCap() throws {
        let script = try PlumbBinary.script("just 1" + String(repeating: " | map { $0 + 1 }", count: 2_500) + "\n")
        let result = try PlumbBinary.run(["run", script])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("pipeline is too long (the limit is 1000 stages)"))
    }
}
