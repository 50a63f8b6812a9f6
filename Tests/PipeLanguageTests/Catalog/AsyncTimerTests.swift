import Testing

@testable import PipeLanguage

/// Issue 39: `timer every PERIOD` starts a pipeline on the async side, as swift-async-algorithms'
/// `AsyncTimerSequence` (its guide, Timer.md: `AsyncTimerSequence.repeating(every:clock:)`); on the
/// virtual clock it sleeps on the runtime's clock, one timeline with the publisher stages.
@Suite struct AsyncTimerTests {
    static func f(_ events: String...) -> [String] { ["0 subscribed"] + events }

    @Test("timer every starts on the async side and ticks 0, 1, 2 at exact virtual times")
    func ticks() throws {
        #expect(try CrossingTests.sides("timer every 100ms | take 3") == ["timer:async", "take:async"])
        #expect(run("timer every 100ms | take 3") == Self.f("100 value 0", "200 value 1", "300 value 2", "300 finished"))
        // `timer 1s` is still the publisher it was.
        #expect(try CrossingTests.sides("timer 1s") == ["timer:publisher"])
    }

    @Test("one timeline with Combine stages after publisher crosses back")
    func oneTimeline() {
        #expect(
            run("timer every 100ms | take 2 | publisher | merge (interval 150ms | take 2)")
                == Self.f("100 value 0", "150 value 0", "200 value 1", "300 value 1", "300 finished"))
    }

    /// AsyncTimerSequence's iterator sleeps until the last deadline plus the interval
    /// (AsyncTimerSequence.swift in the package): a consumer busy past a deadline gets the tick at
    /// once, where `interval` would have pushed it on time (and `values` dropped it without demand).
    @Test("a slow consumer pulls the next tick at once when its deadline has passed")
    func slowConsumer() {
        #expect(
            run("timer every 100ms | asyncMap delay 250 | take 3")
                == Self.f("350 value 0", "600 value 1", "850 value 2", "850 finished"))
    }

    @Test("timer every's types and Swift: AsyncTimerSequence, counted as interval's ticks are")
    func typesAndSwift() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let types = try session.types(of: "timer every 100ms | take 3").get()
        #expect(types.stages.first?.type.asyncSequence == "AsyncTimerSequence")
        let swift = try session.swiftTranslation(of: "timer every 100ms | take 3").get()
        #expect(swift.isFaithful)
        #expect(
            swift.code.joined(separator: "\n").contains(
                "let sequence = zip((0...).async, AsyncTimerSequence.repeating(every: .milliseconds(100)))\n        .map { tick, _ in tick }\n        .prefix(3)\n"
            ))
    }

    @Test("timer every takes a positive period")
    func badPeriod() {
        let (_, diagnostics) = Session(runtime: Runtime(clock: .virtual)).compile("timer every 0ms | take 1", file: "t")
        #expect(diagnostics.contains { $0.severity == .error })
    }
}

/// `:compare` runs the written pipeline as publishers: an async source has none.
@Suite struct AsyncTimerCompareTests {
    @Test(":compare refuses timer every with E410 at the source, naming its publisher twin")
    func compareRefuses() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        guard case .failure(let d) = session.comparisonPlan(of: "timer every 100ms | take 3") else {
            Issue.record("timer every compared")
            return
        }
        #expect(d.id.code == "E410")
        #expect(d.message == "'timer every' is an async sequence with no publisher twin, so :compare cannot run it as a publisher")
        #expect(d.offset == 0 && d.location.column == 1)
    }
}
