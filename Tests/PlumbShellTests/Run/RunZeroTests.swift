import Testing
@testable import PipeLanguage
@testable import PlumbShell

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
