import PipeLanguage
import Testing
@testable import PlumbShell

/// A stage retried many times draws its first attempts, one lane that counts the rest, and the
/// last (the issue's `retry 1000` drew 3,011 lines).
@Suite struct MarbleFoldTests {
    static func record(attempts: Int, failure: (Int) -> String) -> MarbleRecording {
        var recording = MarbleRecording()
        recording.handle(lane: 0, .opened(label: "asyncMap flaky", stage: 1, parent: nil), at: 0)
        for n in 1...attempts {
            recording.handle(lane: 0, .subscribed, at: Int64(n))
            if n < attempts {
                recording.handle(lane: 0, .failed(PipelineError(message: failure(n))), at: Int64(n))
            } else {
                recording.handle(lane: 0, .finished, at: Int64(n))
            }
        }
        return recording
    }

    @Test("1,000 attempts: #1 #2 #3, one lane for #4 … #999, and #1000")
    func folds() {
        let lanes = Self.record(attempts: 1_000) { _ in "boom" }.run.lanes
        #expect(lanes.map(\.label) == ["asyncMap flaky", "#1", "#2", "#3", "#4 … #999: 996 attempts, each failed the same way", "#1000"])
        #expect(lanes.last?.events.map(\.event) == [.subscribed, .finished])
    }

    @Test("attempts that failed differently are counted without 'the same way'; a few attempts are all drawn")
    func differentAndFew() {
        let lanes = Self.record(attempts: 8) { "failure \($0)" }.run.lanes
        #expect(lanes[4].label == "#4 … #7: 4 attempts")
        #expect(Self.record(attempts: 4) { _ in "x" }.run.lanes.map(\.label) == ["asyncMap flaky", "#1", "#2", "#3", "#4"])
        #expect(Self.record(attempts: 5) { _ in "x" }.run.lanes.map(\.label) == ["asyncMap flaky", "#1", "#2", "#3", "#4", "#5"])
    }
}
