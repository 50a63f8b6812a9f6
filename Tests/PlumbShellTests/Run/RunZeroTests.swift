import Testing
@testable import PipeLanguage
@testable import PlumbShell
import PlumbDiagrams

/// A run's times count from its subscription: building the graph before it (milliseconds under
/// load, on the real clock) is not the run's time, so `subscribed` is always at +0.000s.
@Suite struct RunZeroTests {
    @Test("time spent before the subscribed event is not counted; later events are measured from it")
    func zeroAtSubscription() {
        let runtime = Runtime(clock: .virtual)
        let recorder = RunRecorder(
            job: 0, runtime: runtime, formatter: EventFormatter(format: .text, style: Style(enabled: false)),
            sink: nil, onTerminal: {})
        // 5 ms pass (on the virtual clock) between making the recorder and the subscription.
        runtime.schedule(afterNanoseconds: 5_000_000) {}
        runtime.driveVirtualTime { false }
        recorder.handle(.subscribed)
        runtime.schedule(afterNanoseconds: 2_000_000) {}
        runtime.driveVirtualTime { false }
        recorder.handle(.value(.int(1)))
        recorder.handle(.finished)
        #expect(recorder.snapshot.timeline.first?.time == 2_000_000)
        #expect(recorder.snapshot.duration == .milliseconds(2))
    }
}

/// A stage's subscription is recorded before the terminal's `subscribed` event (it goes down the
/// chain first): on the real clock, where building and subscribing take milliseconds, its `^` was
/// stamped on the recorder's old zero and drawn after the values it caused (`(a^)`, issue 40).
@Suite struct LaneStampTests {
    @Test("a lane's ^ recorded before the subscribed event is drawn at 0, before the lane's value")
    func subscriptionBeforeValue() {
        let runtime = Runtime(clock: .virtual)
        let recorder = RunRecorder(
            job: 0, runtime: runtime, formatter: EventFormatter(format: .text, style: Style(enabled: false)),
            sink: nil, onTerminal: {})
        recorder.handle(.lane(0, .opened(label: "just 1", stage: 0, parent: nil)))
        // Subscribing down the chain takes 5 ms before the terminal reports `subscribed`.
        runtime.schedule(afterNanoseconds: 5_000_000) {}
        runtime.driveVirtualTime { false }
        recorder.handle(.lane(0, .subscribed))
        recorder.handle(.subscribed)
        recorder.handle(.lane(0, .value(.int(1))))
        recorder.handle(.lane(0, .finished))
        recorder.handle(.value(.int(1)))
        recorder.handle(.finished)
        let lane = recorder.snapshot.marbles.run.lanes[0]
        let times = lane.events.map(\.time)
        #expect(times == [0, 0, 0], "\(lane.events)")
        let text = MarbleText.render(recorder.snapshot.marbles.run, width: 80, color: false).joined(separator: "\n")
        #expect(text.contains("^(1|)"), "\(text)")
    }
}

/// The same on the real clock, where building and subscribing take real time and the lanes'
/// events come from the runtime's threads (`receiveOn`, `subscribeOn`): drawn by the built plumb,
/// several times, every lane of these synchronous pipelines starts with its `^`, and no `^` comes
/// after a value of its own lane (`(1|)` without `^`, and `(a^)`, were drawn on the real clock,
/// issue 40).
@Suite struct LaneStampRealClockTests {
    static let script = """
        :marbles on
        just 1 | append 2
        just "a" | append "b" | map { $0 }
        from [1, 2] | append (just 3) | filter { $0 > 0 }
        just 1 | prepend 0 | merge (just 5)
        from [1, 2] | flatMap { just $0 | append 9 }
        just "x" | receiveOn | append "y"
        from [1, 2, 3] | subscribeOn | receiveOn | map { $0 * 2 }

        """

    /// Each lane's marks, from the ruler's `0` column on: `[2] map { $0 }   ^(ab|)` gives `^(ab|)`.
    static func lanes(_ output: String) -> [(label: String, marks: String)] {
        var lanes: [(String, String)] = []
        var start: String.Index?
        var column = 0
        for line in output.split(separator: "\n").map(String.init) {
            if !line.hasPrefix("  +"), let zero = line.firstIndex(of: "0"), line[..<zero].allSatisfy({ $0 == " " }) {
                column = line.distance(from: line.startIndex, to: zero)
                start = zero
                continue
            }
            guard start != nil, line.hasPrefix("[") || line.hasPrefix("    ├") || line.hasPrefix("    └") else { continue }
            guard line.count > column else { continue }
            let marks = String(line.dropFirst(column)).trimmingCharacters(in: .whitespaces)
            lanes.append((String(line.prefix(column)).trimmingCharacters(in: .whitespaces), marks))
        }
        return lanes
    }

    @Test("real clock, five runs: every lane starts with ^ and no ^ follows a value of its lane")
    func subscriptionFirst() throws {
        let file = try PlumbBinary.script(Self.script)
        for attempt in 1...5 {
            let result = try PlumbBinary.run(["run", "--no-color", file])
            #expect(result.status == 0, "\(result)")
            let lanes = Self.lanes(result.stdout)
            // 2 + 3 + 3 (and the inner) + 3 + 2 (and inners) + 3 + 4 lanes, at least.
            #expect(lanes.count >= 20, "attempt \(attempt): \(result.stdout)")
            for (label, marks) in lanes {
                #expect(marks.first == "^", "attempt \(attempt): \(label) draws \(marks): its events before its subscription\n\(result.stdout)")
                #expect(!marks.dropFirst().contains("^"), "attempt \(attempt): \(label) draws \(marks)\n\(result.stdout)")
            }
        }
    }
}
