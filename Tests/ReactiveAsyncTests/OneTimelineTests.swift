import Reactive
import ReactiveAsync
import Synchronization
import Testing

/// Issue 42: "the language's virtual clock and this clock are one time: a pipeline that mixes a
/// Combine `delay` and an async `debounce` runs on one timeline." ReactiveAsync's operators are
/// generic over any `Clock`, and start their tasks on `TaskSpawning.preferredExecutor`, so
/// Reactive's `VirtualClock` and `ManualTaskExecutor`, driven by `VirtualTimeScheduler.run(draining:)`,
/// drive them with the Combine stages on one virtual time.
@Suite struct OneTimelineTests {
    /// Lines in the order they were appended.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A subject sends 1 at 100 ms and 2 at 150 ms and finishes at 400 ms (Combine, on the
    /// scheduler); its values cross into an async sequence, which `debounce(for: 200 ms)` on
    /// Reactive's `VirtualClock` emits at 350 ms; a Combine `delay(300 ms)` of the same subject
    /// delivers at 400 and 450 ms. One log, one time.
    static func run() -> [String] {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let feed = subject.sink(receiveCompletion: { _ in continuation.finish() }, receiveValue: { continuation.yield($0) })
        let delayed = subject.delay(for: .milliseconds(300), scheduler: scheduler)
            .sink { log.append("\(scheduler.now) combine delay \($0)") }
        Task(executorPreference: executor) {
            await TaskSpawning.$preferredExecutor.withValue(executor) {
                for await value in stream.debounce(for: .milliseconds(200), clock: clock) {
                    log.append("\(clock.now) async debounce \(value)")
                }
                log.append("\(clock.now) async finished")
            }
        }
        let start = scheduler.now
        scheduler.schedule(after: start.advanced(by: .milliseconds(100))) { subject.send(1) }
        scheduler.schedule(after: start.advanced(by: .milliseconds(150))) { subject.send(2) }
        scheduler.schedule(after: start.advanced(by: .milliseconds(400))) { subject.send(completion: .finished) }
        scheduler.run(draining: executor)
        withExtendedLifetime((feed, delayed)) {}
        return log.all
    }

    @Test("a Combine delay and an async debounce run on one virtual timeline, the same every time")
    func oneTimeline() {
        let first = Self.run()
        // debounce: 2 arrives at 150 ms and nothing follows within 200 ms, so it goes out at 350 ms
        // (the guide: an element is emitted after the interval passes with no newer element).
        // delay: each value 300 ms after it was sent.
        #expect(
            first == [
                "350ms async debounce 2", "400ms combine delay 1", "400ms async finished", "450ms combine delay 2",
            ])
        for _ in 0..<20 { #expect(Self.run() == first) }
    }
}
