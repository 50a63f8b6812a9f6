import Foundation
import Testing

/// `plumb test DIR` and `plumb learn --once DIR` check each file in a child `plumb`: a crash in
/// one file costs that file, never the others' results, and a file that cannot be checked is a
/// failure that says why.
@Suite struct CheckIsolationTests {
    /// Nested merges that need more stack than a 200 KB limit gives: a real crash (SIGSEGV) of the
    /// process that checks it, as any unknown crash would be.
    static var stackHungry: String {
        var text = "just 1"
        for _ in 0..<60 { text = "just 1 | merge (\(text))" }
        return text + "\nexpect values [1]\n"
    }

    @Test("a file that crashes plumb is a FAIL of its own; the files after it are still checked and counted")
    func testSurvivesACrash() throws {
        let folder = try PlumbBinary.folder([
            "a.pipe": "just 1\nexpect values [1]\n",
            "b.pipe": Self.stackHungry,
            "c.pipe": "just 2\nexpect values [3]\n",
            "d.pipe": "just 4\nexpect values [4]\n",
        ])
        let result = try PlumbBinary.shell("ulimit -s 200; exec \"$PLUMB\" test \(folder)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("PASS \(folder)/a.pipe\n"), "\(result)")
        #expect(result.stdout.contains("FAIL \(folder)/b.pipe: plumb stopped by signal 11 (SIGSEGV) while checking it"), "\(result)")
        #expect(result.stdout.contains("FAIL \(folder)/c.pipe:2: expected values [3], got values [2]"), "\(result)")
        #expect(result.stdout.contains("PASS \(folder)/d.pipe\n"), "\(result)")
        #expect(result.stdout.hasSuffix("2 passed, 2 failed\n"), "\(result)")
    }

    @Test("a child check never outlives its parent: plumb test killed mid-check leaves no plumb behind")
    func childEndsWithParent() throws {
        // Found running the suite: each `learn`/`test` killed during an endless check left an
        // orphan child spinning the virtual clock toward --until 1000h (8 of them, 20% CPU each).
        let folder = try PlumbBinary.folder([
            "a.pipe": "interval 100ms\nexpect count 1\n",
            "b.pipe": "just 1\nexpect values [1]\n",
        ])
        // `[-]-until` matches the processes' command lines; this script's own (bash's and
        // timeout's) spells it `-"-until"`, which it does not match.
        let pattern = "[-]-until 1000h test \(folder)"
        let script = """
            "$PLUMB" -"-until" 1000h test \(folder) >/dev/null & parent=$!
            for i in $(seq 300); do [ "$(pgrep -fc -- '\(pattern)')" -ge 2 ] && break; sleep 0.1; done
            [ "$(pgrep -fc -- '\(pattern)')" -ge 2 ] || { echo "no child started"; kill -9 $parent; exit 0; }
            kill -9 $parent
            for i in $(seq 150); do pgrep -f -- '\(pattern)' >/dev/null || { echo gone; exit 0; }; sleep 0.1; done
            echo "left behind"; pkill -9 -f -- '\(pattern)'
            """
        let result = try PlumbBinary.shell(script)
        #expect(result.stdout == "gone\n", "\(result)")
    }

    @Test("learn --once: an exercise that crashes plumb fails by name, and the others are still checked")
    func learnSurvivesACrash() throws {
        let folder = try PlumbBinary.folder([
            "01-fine.pipe": "just 1\nexpect values [1]\n",
            "02-crash.pipe": Self.stackHungry,
            "03-fine.pipe": "just 2\nexpect values [2]\n",
        ])
        let result = try PlumbBinary.shell("ulimit -s 200; exec \"$PLUMB\" learn --once \(folder)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("2/3 done\nnext: 02-crash"), "\(result)")
        #expect(result.stdout.contains("02-crash.pipe:1: plumb stopped by signal 11 (SIGSEGV) while checking it"), "\(result)")
    }

    @Test(
        "learn --once: an exercise that is not UTF-8, empty, or without an expect is a named failure, never 'all pass'",
        arguments: [
            (Data([0xFF, 0xFE, 0x20, 0x0A]), "not UTF-8"),
            (Data(), "the exercise is empty"),
            (Data("# a lesson\njust 1\n".utf8), "the exercise has no check: add an expect line"),
        ])
    func learnNamesBadExercises(_ contents: Data, _ expected: String) throws {
        let folder = try PlumbBinary.folder(["01-fine.pipe": "just 1\nexpect values [1]\n"])
        try contents.write(to: URL(fileURLWithPath: folder).appendingPathComponent("02-bad.pipe"))
        let result = try PlumbBinary.run(["learn", "--once", folder])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("1/2 done\nnext: 02-bad"), "\(result)")
        #expect(result.stdout.contains(expected), "\(result)")
        #expect(!result.stdout.contains("All"), "\(result)")
    }
}
