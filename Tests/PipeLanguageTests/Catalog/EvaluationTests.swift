import Testing
@testable import PipeLanguage

/// Every catalog entry runs on the VirtualTimeScheduler with its exact events and virtual times
/// (milliseconds since subscription). The registry test makes sure no entry is missing.
@Suite struct EvaluationTests {
    static func f(_ events: String...) -> [String] { ["0 subscribed"] + events }

    static let table: [String: (String, [String])] = [
        "just": ("just 1", f("0 value 1", "0 finished")),
        "from": ("from [1, 2, 3]", f("0 value 1", "0 value 2", "0 value 3", "0 finished")),
        "empty": ("empty", f("0 finished")),
        "never": ("never | timeout 100ms", f("100 finished")),
        "fail": ("fail \"boom\"", f("0 failed: boom")),
        "interval": ("interval 100ms | take 3", f("100 value 0", "200 value 1", "300 value 2", "300 finished")),
        "timer": ("timer 1s", f("1000 value 0", "1000 finished")),
        // A future says when it starts and when it is fulfilled: made at build, it starts before
        // the subscription; made by deferred's closure, it starts for the subscription (issue 40:
        // the eager note was printed for both).
        "future": (
            "future delay 200 value 42",
            [
                "0 note 0 future started: it runs now, before anyone subscribes", "0 subscribed",
                "200 note 0 future fulfilled with 42 after 200ms", "200 value 42", "200 finished",
            ]
        ),
        "deferred": (
            "deferred { future delay 200 value 42 }",
            [
                "0 note 0 future started: made now, by the closure around it, for this subscription", "0 subscribed",
                "200 note 0 future fulfilled with 42 after 200ms", "200 value 42", "200 finished",
            ]
        ),
        "marble": ("marble \"-a-(bc)-|\"", f("100 value \"a\"", "300 value \"b\"", "300 value \"c\"", "500 finished")),
        "todo": ("from [1, 2, 3] | todo", f("0 failed: this is where your answer goes")),
        "subject": ("subject | take 0", f("0 finished")),
        // An async source (AsyncChannel): take 0 ends before it pulls (ChannelTests has the sends).
        "channel": ("channel | take 0", f("0 finished")),
        "currentValue": ("currentValue 5 | take 1", f("0 value 5", "0 finished")),
        "map": ("from [1, 2, 3] | map { $0 * 10 }", f("0 value 10", "0 value 20", "0 value 30", "0 finished")),
        "filter": ("from 1...6 | filter { $0 % 2 == 0 }", f("0 value 2", "0 value 4", "0 value 6", "0 finished")),
        "compactMap": ("from [1, -1, 2] | compactMap { $0 > 0 ? $0 : nil }", f("0 value 1", "0 value 2", "0 finished")),
        "scan": ("from 1...4 | scan 0 { $0 + $1 }", f("0 value 1", "0 value 3", "0 value 6", "0 value 10", "0 finished")),
        "reduce": ("from 1...4 | reduce 0 { $0 + $1 }", f("0 value 10", "0 finished")),
        "count": ("from 1...5 | count", f("0 value 5", "0 finished")),
        "collect": ("from 1...5 | collect 2", f("0 value [1, 2]", "0 value [3, 4]", "0 value [5]", "0 finished")),
        "first": ("from 1...5 | first where: { $0 > 2 }", f("0 value 3", "0 finished")),
        "last": ("from 1...5 | last", f("0 value 5", "0 finished")),
        "prefix": ("interval 100ms | take 3", f("100 value 0", "200 value 1", "300 value 2", "300 finished")),
        "dropFirst": ("from 1...5 | skip 2", f("0 value 3", "0 value 4", "0 value 5", "0 finished")),
        "drop": ("from 1...5 | drop while: { $0 < 3 }", f("0 value 3", "0 value 4", "0 value 5", "0 finished")),
        "removeDuplicates": ("from [1, 1, 2, 2, 1] | removeDuplicates", f("0 value 1", "0 value 2", "0 value 1", "0 finished")),
        "ignoreOutput": ("from 1...3 | ignoreOutput", f("0 finished")),
        "replaceEmpty": ("empty | replaceEmpty 0", f("0 value 0", "0 finished")),
        "replaceNil": ("from [1, nil, 3] | replaceNil 0", f("0 value 1", "0 value 0", "0 value 3", "0 finished")),
        "replaceError": ("fail \"boom\" | replaceError -1", f("0 value -1", "0 finished")),
        "min": ("from [3, 1, 2] | min", f("0 value 1", "0 finished")),
        "max": ("from [3, 1, 2] | max", f("0 value 3", "0 finished")),
        "contains": ("from 1...5 | contains 3", f("0 value true", "0 finished")),
        "allSatisfy": ("from 1...5 | allSatisfy { $0 > 0 }", f("0 value true", "0 finished")),
        "output": ("from [10, 20, 30] | output at: 1", f("0 value 20", "0 finished")),
        "handleEvents": ("just 1 | handleEvents receiveOutput: { \"saw \\($0)\" }", f("0 hook 1 saw 1", "0 value 1", "0 finished")),
        "print": (
            "just 1 | print \"p\"",
            [
                "0 print 1 p: receive subscription: (Just)", "0 subscribed", "0 print 1 p: request unlimited",
                "0 print 1 p: receive value: (1)", "0 value 1", "0 print 1 p: receive finished", "0 finished",
            ]
        ),
        "share": ("interval 100ms | take 3 | share", f("100 value 0", "200 value 1", "300 value 2", "300 finished")),
        "flatMap": ("from [1, 2] | flatMap { from [$0, $0 * 10] }", f("0 value 1", "0 value 10", "0 value 2", "0 value 20", "0 finished")),
        "merge": (
            "interval 100ms | take 2 | merge (interval 150ms | take 2)",
            f("100 value 0", "150 value 0", "200 value 1", "300 value 1", "300 finished")
        ),
        "zip": ("from [1, 2] | zip (from [\"a\", \"b\"])", f("0 value [1, \"a\"]", "0 value [2, \"b\"]", "0 finished")),
        "combineLatest": (
            "interval 100ms | take 3 | combineLatest (interval 150ms | take 2)",
            f("150 value [0, 0]", "200 value [1, 0]", "300 value [1, 1]", "300 value [2, 1]", "300 finished")
        ),
        "switchToLatest": (
            "from [1, 2] | switchToLatest { interval 100ms | take 2 | map { $0 + 10 } }",
            f("100 value 10", "200 value 11", "200 finished")
        ),
        "append": ("from [1, 2] | append 3", f("0 value 1", "0 value 2", "0 value 3", "0 finished")),
        "prepend": ("from [2, 3] | prepend 1", f("0 value 1", "0 value 2", "0 value 3", "0 finished")),
        "catch": ("fail \"boom\" | catch { just $0 }", f("0 value \"boom\"", "0 finished")),
        "retry": ("just 5 | asyncMap flaky 2 | retry 3", f("0 value 5", "0 finished")),
        "delay": ("from [1, 2] | delay 100ms", f("100 value 1", "100 value 2", "100 finished")),
        // A pending value is dropped when upstream finishes (Combine's behaviour), so upstream stays open here.
        "debounce": ("interval 50ms | take 5 | append (timer 400ms | ignoreOutput) | debounce 100ms", f("350 value 4", "650 finished")),
        "throttle": (
            "interval 30ms | take 10 | throttle 100ms latest: true",
            f("30 value 0", "130 value 3", "230 value 6", "330 value 9", "330 finished")
        ),
        "timeout": ("interval 50ms | take 2 | append (never) | timeout 100ms customError: \"slow\"", f("50 value 0", "100 value 1", "200 failed: slow")),
        "measureInterval": ("interval 100ms | take 3 | measureInterval", f("100 value 100.0", "200 value 100.0", "300 value 100.0", "300 finished")),
        // Combine's buffer asks a synchronous upstream for everything before the subscriber is
        // subscribed: what does not fit (3) is dropped, whatever the subscriber asks for.
        "buffer": ("from 1...3 | buffer 2", f("0 value 1", "0 value 2", "0 finished")),
        "receiveOn": ("just 1 | receiveOn", f("0 value 1", "0 finished")),
        "subscribeOn": ("just 1 | subscribeOn", f("0 value 1", "0 finished")),
        "asyncMap": ("just 1 | asyncMap delay 100", f("100 value 1", "100 finished")),
        "sink": ("just 1 | sink", f("0 value 1", "0 finished")),
        "values": ("from 1...3 | values", f("0 next 1", "0 next 2", "0 next 3", "0 finished")),
        "async": ("just 1 | asyncMap delay 100 | async", f("100 value 1", "100 finished")),
        // Issue 39: the crossings and the async-only stages (CrossingTests has one test per twin).
        "stream": ("from 1...3 | stream | map { $0 * 2 }", f("0 value 2", "0 value 4", "0 value 6", "0 finished")),
        "publisher": ("from [1, 2] | values | map { $0 + 1 } | publisher | scan 0 { $0 + $1 }", f("0 value 2", "0 value 5", "0 finished")),
        "adjacentPairs": ("from [1, 2, 3] | values | adjacentPairs", f("0 value [1, 2]", "0 value [2, 3]", "0 finished")),
        "chunks": ("from 1...5 | values | chunks 2", f("0 value [1, 2]", "0 value [3, 4]", "0 value [5]", "0 finished")),
    ]

    @Test("every catalog entry has an evaluation case")
    func registry() {
        for entry in Catalog.entries {
            #expect(Self.table[entry.name] != nil, "no evaluation case for \(entry.name)")
        }
    }

    @Test("each catalog entry produces its exact events at exact virtual times", arguments: Catalog.entries.map(\.name))
    func evaluate(_ name: String) {
        guard let (text, expected) = Self.table[name] else { return }
        #expect(run(text) == expected, "\(text)")
    }

    @Test("each catalog entry's example runs without a diagnostic and completes on virtual time", arguments: Catalog.entries.map(\.name))
    func example(_ name: String) throws {
        let entry = try #require(Catalog.entry(named: name))
        let text = entry.example.hasPrefix("let ") ? entry.example + "\n" + entry.example.split(separator: " ")[1] + " | take 0" : entry.example
        // Lines a stage writes (print, hooks, notes) may come before the subscription event.
        let events = run(text).filter { !$0.contains(" print ") && !$0.contains(" hook ") && !$0.contains(" note ") }
        // Every event: subscribed at 0, then values in time order, then one completion, last.
        #expect(events.first == "0 subscribed", "\(text): \(events)")
        let kinds = events.map { $0.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "" }
        #expect(kinds.last == "finished" || kinds.last == "failed:", "does not complete: \(text): \(events)")
        #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == "value" || $0 == "next" }, "\(text): \(events)")
        let times = events.compactMap { Int($0.prefix { $0 != " " }) }
        #expect(times.count == events.count && times == times.sorted(), "\(text): \(events)")
    }
}
