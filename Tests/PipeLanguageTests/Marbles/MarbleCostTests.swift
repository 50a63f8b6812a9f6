import Reactive
import Testing

@testable import PipeLanguage

/// What a long marble costs, counted (issue 41: `marble "<120,000 dashes>a|"` took 14 s under the
/// default horizon and 0.15 s with a longer one): the source schedules only frames that hold
/// something, and the horizon's question "is a timer repeating?" does not walk the queue.
@Suite struct MarbleCostTests {
    @Test("a marble of 120,000 dashes then a| schedules two actions, not 120,002, and still ends at 12,000 s")
    func emptyFramesAreNotScheduled() throws {
        let runtime = Runtime(clock: .virtual)
        let frames = try MarbleNotation.parse(String(repeating: "-", count: 120_000) + "a|").get()
        let publisher = Marbles.publisher(frames, frame: Marbles.defaultFrame, failure: PipelineError(message: "x"), runtime: runtime)
        let values = Lock<[String]>([])
        let cancellable = publisher.sink(
            receiveCompletion: { _ in values.withLock { $0.append("|") } }, receiveValue: { v in values.withLock { $0.append("\(v)") } })
        defer { cancellable.cancel() }
        let scheduler = try #require(runtime.virtual?.scheduler)
        #expect(scheduler.pendingCount == 2)
        let stopped = runtime.driveVirtualTime(horizonNanoseconds: Runtime.defaultHorizonNanoseconds) { false }
        #expect(!stopped)
        #expect(values.withLock { $0 }.count == 2)
        #expect(runtime.nowNanoseconds() == 120_001 * Marbles.defaultFrame)
    }
}
