import PlumbDiagrams

/// Recorded runs the tests draw: one per feature of the diagram.
enum Samples {
    /// Two failing lanes: the first fails with an id the language gives (E602, as a division by
    /// zero does), the second without one, as a user's `fail "…"` does.
    static func failures(_ first: (label: String, message: String, at: Double), _ second: (label: String, message: String, at: Double)) -> MarbleRun {
        var run = MarbleRun()
        let a = run.addLane(label: first.label)
        let b = run.addLane(label: second.label)
        for lane in [a, b] { run.record(.subscribed, lane: lane, at: 0) }
        run.record(.failed(first.message, id: "E602"), lane: a, at: ms(first.at))
        run.record(.failed(second.message), lane: b, at: ms(second.at))
        return run
    }

    /// `map { 100 / $0 }` failing with E602 at 100 ms, then `fail "boom"` at 200 ms.
    static var failureIds: MarbleRun {
        failures(("map { 100 / $0 }", "division by zero: 100 / 0", 100), ("fail \"boom\"", "boom", 200))
    }

    /// `just "hello" | flatMap { from [1, 2] }` style: a stage with two inner lanes.
    static var inner: MarbleRun {
        var run = MarbleRun()
        let source = run.addLane(label: "interval 100ms | take 2")
        let flat = run.addLane(label: "flatMap { from [$0, 10] | delay 150ms }")
        run.record(.subscribed, lane: source, at: 0)
        run.record(.subscribed, lane: flat, at: 0)
        let inner1 = run.addLane(label: "inner 1", parent: flat, kind: .inner)
        let inner2 = run.addLane(label: "inner 2", parent: flat, kind: .inner)
        run.value("0", lane: source, at: ms(100))
        run.record(.subscribed, lane: inner1, at: ms(100))
        run.value("1", lane: source, at: ms(200))
        run.record(.finished, lane: source, at: ms(200))
        run.record(.subscribed, lane: inner2, at: ms(200))
        run.value("0", lane: inner1, at: ms(250))
        run.value("0", lane: flat, at: ms(250))
        run.value("10", lane: inner1, at: ms(250))
        run.value("10", lane: flat, at: ms(250))
        run.record(.finished, lane: inner1, at: ms(250))
        run.value("1", lane: inner2, at: ms(350))
        run.value("1", lane: flat, at: ms(350))
        run.value("10", lane: inner2, at: ms(350))
        run.value("10", lane: flat, at: ms(350))
        run.record(.finished, lane: inner2, at: ms(350))
        run.record(.finished, lane: flat, at: ms(350))
        return run
    }

    /// `fail "boom" | retry 2`: three attempts of the source, each failing.
    static var retry: MarbleRun {
        var run = MarbleRun()
        let source = run.addLane(label: "tryMap { $0 > 1 ? fail(\"boom\") : $0 }")
        let retry = run.addLane(label: "retry 2")
        run.record(.subscribed, lane: retry, at: 0)
        var attempts: [Int] = []
        for n in 1...3 { attempts.append(run.addLane(label: "#\(n)", parent: source, kind: .attempt)) }
        for (n, attempt) in attempts.enumerated() {
            let start = ms(Double(300 * n))
            if n == 0 { run.record(.subscribed, lane: source, at: start) }
            run.record(.subscribed, lane: attempt, at: start)
            run.value("1", lane: attempt, at: start + ms(100))
            run.value("1", lane: retry, at: start + ms(100))
            run.record(.failed("boom"), lane: attempt, at: start + ms(200))
        }
        run.record(.failed("boom"), lane: source, at: ms(800))
        run.record(.failed("boom"), lane: retry, at: ms(800))
        return run
    }

    /// Values of every length and kind, including text that needs escaping.
    static var longValues: MarbleRun {
        var run = MarbleRun()
        let source = run.addLane(label: "from [\"hello\", 10, [1, 2], \"<a & b>\"]")
        let map = run.addLane(label: "map { $0 }")
        for lane in [source, map] { run.record(.subscribed, lane: lane, at: 0) }
        for (n, text) in ["\"hello\"", "10", "[1, 2]", "\"<a & b>\"", "\"hello\"", "x"].enumerated() {
            run.value(text, lane: source, at: ms(Double(100 * (n + 1))))
            run.value(text, lane: map, at: ms(Double(100 * (n + 1))))
        }
        run.record(.finished, lane: source, at: ms(600))
        run.record(.cancelled, lane: map, at: ms(650))
        return run
    }

    /// `timer 10s` after a burst: the idle stretch collapses.
    static var idle: MarbleRun {
        var run = MarbleRun()
        let source = run.addLane(label: "merge (from [1, 2, 3] | delay 100ms each) (timer 10s)")
        run.record(.subscribed, lane: source, at: 0)
        for n in 1...3 { run.value("\(n)", lane: source, at: ms(Double(100 * n))) }
        run.value("0", lane: source, at: ms(10_000))
        run.record(.finished, lane: source, at: ms(10_000))
        return run
    }

    /// A job still running: no lane has ended, `end` is now.
    static var partial: MarbleRun {
        var run = MarbleRun()
        let source = run.addLane(label: "interval 1s")
        let map = run.addLane(label: "map { $0 + 1 }")
        for lane in [source, map] { run.record(.subscribed, lane: lane, at: 0) }
        for n in 0..<3 {
            run.value("\(n)", lane: source, at: ms(Double(1000 * (n + 1))))
            run.value("\(n + 1)", lane: map, at: ms(Double(1000 * (n + 1))))
        }
        run.end = ms(3500)
        return run
    }

    /// A recorded `n`-event run on `lanes` lanes: a 1 ms interval through stages, ending with a finish.
    static func large(events: Int, lanes: Int) -> MarbleRun {
        var run = MarbleRun()
        let ids = (0..<lanes).map { run.addLane(label: "stage \($0) { $0 * \($0 + 1) }") }
        for id in ids { run.record(.subscribed, lane: id, at: 0) }
        let perLane = max(1, events / lanes - 2)
        for n in 0..<perLane {
            for (k, id) in ids.enumerated() { run.value("\(n * (k + 1))", lane: id, at: Int64(n + 1) * 1_000_000 + Int64(k) * 3_000) }
        }
        let end = Int64(perLane + 1) * 1_000_000
        for id in ids { run.record(.finished, lane: id, at: end) }
        return run
    }

    static var all: [(String, MarbleRun)] {
        [("example", .example), ("inner", inner), ("retry", retry), ("longValues", longValues), ("idle", idle), ("partial", partial)]
    }
}
