import Testing
import Reactive
import ReactiveTestSupport

@Suite("Publishers: Record")
struct RecordTests {
    @Test("replays output then completion to each subscriber")
    func replays() {
        let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(TestError()))
        for _ in 0..<2 {
            let sub = TestSubscriber<Int, TestError>()
            record.subscribe(sub)
            #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .failure(TestError())])
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("init(record:) fills a recording; values after the completion are ignored")
    func recordClosure() {
        let record = Record<String, Never> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .finished)
            recording.receive("late")
        }
        #expect(record.recording.output == ["a", "b"])
        #expect(record.recording.completion == .finished)
        let sub = TestSubscriber<String, Never>()
        record.subscribe(sub)
        #expect(sub.events == [.subscription, .value("a"), .value("b"), .finished])
    }

    @Test("init(recording:) and an unfinished recording finish")
    func fromRecording() {
        var recording = Record<Int, Never>.Recording()
        recording.receive(4)
        let sub = TestSubscriber<Int, Never>()
        Record(recording: recording).subscribe(sub)
        #expect(sub.events == [.subscription, .value(4), .finished])
    }

    @Test("C09 values wait for demand; the completion follows the last value without demand")
    func demand() {
        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        record.subscribe(sub)
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C03 an empty record completes at once, even without demand")
    func empty() {
        let record = Record<Int, TestError>(output: [], completion: .failure(TestError()))
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        record.subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError())])
    }

    @Test("C20 request from inside receive does not recurse")
    func noRecursion() {
        let record = Record<Int, Never>(output: Array(0..<10_000), completion: .finished)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1)); return .none
        }
        record.subscribe(sub)
        #expect(sub.values.count == 10_000)
        #expect(sub.maxNesting <= 1)
        #expect(sub.completion == .finished)
    }

    @Test("C05 cancel stops values and the completion")
    func cancel() {
        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, s in
            if value == 2 { s.cancel() }
            return .none
        }
        record.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .value(2)])
    }
}
