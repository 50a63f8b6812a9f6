import Synchronization
import Testing
@testable import PipeLanguage

/// The per-stage recording marble diagrams draw from.
@Suite struct LaneRecordingTests {
    /// The `.lane` events of `text` on virtual time, as "ms lane signal" lines.
    static func lanes(_ text: String) -> [String] {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile(text, file: "t")
        var lines: [String] = []
        for statement in statements {
            guard case .success(.run(let pipeline)) = session.execute(statement) else { continue }
            let recorded = Mutex<[String]>([])
            let done = Atomic<Bool>(false)
            let runtime = session.runtime
            let start = runtime.now()
            let c = pipeline.start(trace: false, record: true) { event in
                let ms = (runtime.now() - start).milliseconds
                switch event {
                case .lane(let lane, let signal): recorded.withLock { $0.append("\(ms) \(lane) \(signal)") }
                case .finished, .failed, .cancelled: done.store(true, ordering: .sequentiallyConsistent)
                default: break
                }
            }
            runtime.driveVirtualTime { done.load(ordering: .sequentiallyConsistent) }
            withExtendedLifetime(c) {}
            lines = recorded.withLock { $0 }
        }
        return lines
    }

    @Test("every stage opens a lane with its text, then reports its subscription, values and completion")
    func stages() {
        #expect(
            Self.lanes("interval 100ms | take 2 | map { $0 * 2 }") == [
                "0 0 opened(label: \"interval 100ms\", stage: 0, parent: nil)",
                "0 1 opened(label: \"take 2\", stage: 1, parent: nil)",
                "0 2 opened(label: \"map { $0 * 2 }\", stage: 2, parent: nil)",
                "0 0 subscribed", "0 1 subscribed", "0 2 subscribed",
                "100 0 value(0)", "100 1 value(0)", "100 2 value(0)",
                "200 0 value(1)", "200 0 cancelled", "200 1 value(1)", "200 2 value(2)", "200 1 finished", "200 2 finished",
            ])
    }

    @Test("an inner pipeline draws its output as one lane under the stage that made it, one per value")
    func innerLanes() {
        let lines = Self.lanes("from [1, 2] | flatMap { just $0 | map { $0 * 10 } }")
        #expect(
            lines.filter { $0.contains("opened") } == [
                "0 0 opened(label: \"from [1, 2]\", stage: 0, parent: nil)",
                "0 1 opened(label: \"flatMap { just $0 | map { $0 * 10 } }\", stage: 1, parent: nil)",
                "0 2 opened(label: \"map { $0 * 10 }\", stage: 1, parent: Optional(1))",
                "0 3 opened(label: \"map { $0 * 10 }\", stage: 1, parent: Optional(1))",
            ])
        #expect(lines.contains("0 2 value(10)") && lines.contains("0 3 value(20)"))
    }

    @Test("under retry, the stages above it are subscribed again: one subscription per attempt")
    func attempts() {
        let lines = Self.lanes("just 5 | asyncMap flaky 2 | retry 3")
        #expect(lines.filter { $0.hasSuffix("1 subscribed") }.count == 3)
        #expect(lines.filter { $0.contains(" 1 failed(") }.count == 2)
        #expect(lines.contains("0 2 value(5)"))
    }
}
