import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

/// A run the room stops at a cap (events, time) still shows what it drew: its result carries the
/// diagram of the events the room kept, ending in a cancel mark under "stopped here".
@Suite struct CappedRunDiagramTests {
    /// `interval 1ms` as the child streams it: subscribed, then values 1 ms apart.
    static func events(_ count: Int) -> [JSON] {
        let subscribed: JSON = .object(["event": .string("subscribed"), "job": .int(0), "t": .double(0)])
        let values: [JSON] = (0..<count).map { n in
            let fields: [String: JSON] = ["event": .string("value"), "job": .int(0), "t": .double(Double(n + 1) / 1000), "value": .int(n)]
            return .object(fields)
        }
        return [subscribed] + values
    }

    @Test("a run stopped at its cap of events draws the events it sent, a cancel mark where it stopped, and says so")
    func cappedAtEvents() throws {
        let limits = RunLimits()
        let result = RoomRuns.runResult(.outputLimit, limits: limits, events: Self.events(5), all: 2_000)
        #expect(result["capped"] == true)
        #expect(result["error"]?["message"]?.string?.hasPrefix("stopped after 2000 events") == true)
        let svg = try #require(result["svg"]?.string)
        #expect(svg.contains("stopped here: stopped after 2000 events"))
        #expect(svg.contains("(its first 6 of 2000 events drawn)"))
        #expect(svg.components(separatedBy: "class=\"mark value\"").count - 1 == 5)
        #expect(svg.components(separatedBy: "class=\"mark cancel\"").count - 1 == 1)
    }

    @Test("a failed job among the kept events: its ✕ is titled failed[E602]: … when the event carries the id, failed: … when not")
    func failureIds() throws {
        let failed: [JSON] = [
            .object(["event": .string("subscribed"), "job": .int(1), "t": .double(0)]),
            .object(["event": .string("failed"), "job": .int(1), "t": .double(0.001), "error": .string("division by zero: 1 / 0"), "id": .string("E602")]),
            .object(["event": .string("subscribed"), "job": .int(2), "t": .double(0)]),
            .object(["event": .string("failed"), "job": .int(2), "t": .double(0.002), "error": .string("boom")]),
        ]
        let result = RoomRuns.runResult(.outputLimit, limits: RunLimits(), events: Self.events(3) + failed, all: 2_000)
        let svg = try #require(result["svg"]?.string)
        #expect(svg.contains("<title>failed[E602]: division by zero: 1 / 0</title>"))
        #expect(svg.contains("<title>failed: boom</title>"))
    }

    @Test("a run stopped at its time draws what it sent; a crash or a finished run is left as it was")
    func otherOutcomes() throws {
        let limits = RunLimits()
        let timed = RoomRuns.runResult(.timedOut, limits: limits, events: Self.events(3), all: 4)
        #expect(timed["capped"] == true)
        #expect(timed["svg"]?.string?.contains("stopped here: stopped after 5 s of real time") == true)
        // Nothing sent: nothing to draw, the message only.
        #expect(RoomRuns.runResult(.timedOut, limits: limits, events: [], all: 0)["svg"] == nil)
        #expect(RoomRuns.runResult(.crashed("boom"), limits: limits, events: Self.events(3), all: 4) == ["error": ["message": "boom"]])
        #expect(RoomRuns.runResult(.finished(["svg": "x"]), limits: limits, events: Self.events(3), all: 4) == ["svg": "x"])
    }
}
