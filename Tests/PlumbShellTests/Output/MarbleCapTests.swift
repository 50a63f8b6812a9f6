import PipeLanguage
import Testing
@testable import PlumbShell

/// A diagram stops recording at `MarbleRecording.maxEvents`: what it keeps stops growing with it,
/// however long the run goes (`fail "x" | retry 9223372036854775807` grew without end).
@Suite struct MarbleCapTests {
    static func keptEvents(_ recording: MarbleRecording) -> Int {
        recording.run.lanes.reduce(0) { $0 + $1.events.count }
    }

    static func retried(attempts: Int) -> MarbleRecording {
        var recording = MarbleRecording()
        recording.handle(lane: 0, .opened(label: "fail \"x\"", stage: 1, parent: nil), at: 0)
        for n in 1...attempts {
            recording.handle(lane: 0, .subscribed, at: Int64(n))
            recording.handle(lane: 0, .failed(PipelineError(message: "x")), at: Int64(n))
        }
        return recording
    }

    @Test("a stage retried past the cap keeps no more marks than the cap allows, and no more for more attempts")
    func retryStopsRecording() {
        let some = Self.retried(attempts: MarbleRecording.maxEvents)
        let many = Self.retried(attempts: MarbleRecording.maxEvents * 3)
        #expect(many.truncated)
        #expect(Self.keptEvents(many) <= MarbleRecording.maxEvents)
        #expect(Self.keptEvents(many) == Self.keptEvents(some))
        #expect(many.run.lanes.count == some.run.lanes.count)
    }

    @Test("inner publishers opened past the cap add no lanes")
    func openingsStopRecording() {
        var recording = MarbleRecording()
        recording.handle(lane: 0, .opened(label: "flatMap { just $0 }", stage: 1, parent: nil), at: 0)
        for n in 1...(MarbleRecording.maxEvents * 2) {
            recording.handle(lane: n, .opened(label: "just", stage: 2, parent: 0), at: Int64(n))
            recording.handle(lane: n, .finished, at: Int64(n))
        }
        #expect(recording.truncated)
        #expect(recording.run.lanes.count <= MarbleRecording.maxEvents)
        #expect(Self.keptEvents(recording) <= MarbleRecording.maxEvents)
    }

    @Test("past the cap a lane still shows its ending")
    func endingKept() {
        var recording = MarbleRecording()
        recording.handle(lane: 0, .opened(label: "from 1...100000", stage: 1, parent: nil), at: 0)
        recording.handle(lane: 0, .subscribed, at: 0)
        for n in 0..<(MarbleRecording.maxEvents * 2) { recording.handle(lane: 0, .value(.int(n)), at: Int64(n)) }
        recording.handle(lane: 0, .finished, at: 1_000_000)
        #expect(recording.run.lanes[0].events.last?.event == .finished)
    }
}
