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
