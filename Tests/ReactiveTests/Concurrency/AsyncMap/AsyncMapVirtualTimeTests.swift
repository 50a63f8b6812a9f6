import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: asyncMap on virtual time")
struct AsyncMapVirtualTimeTests {
    /// Runs `(1...4).asyncMap { sleep value × 100 ms on the virtual clock }` and returns each
    /// output with the virtual time it arrived at.
    private func run(maxConcurrent: Int) -> [String] {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let log = Lock<[String]>([])
        let finished = Lock(false)
        let cancellable = [4, 1, 3, 2].publisher
            .asyncMap(maxConcurrent: maxConcurrent, executorPreference: executor) { value in
                try? await clock.sleep(for: .milliseconds(100 * value))
                return value
            }
            .sink(
                receiveCompletion: { _ in
                    log.withLock { $0.append("finished at \(scheduler.now.nanoseconds / 1_000_000)ms") }
                    finished.withLock { $0 = true }
                },
                receiveValue: { value in
                    log.withLock { $0.append("\(value) at \(scheduler.now.nanoseconds / 1_000_000)ms") }
                })
        scheduler.run(draining: executor, until: { finished.withLock { $0 } })
        cancellable.cancel()
        return log.withLock { $0 }
    }

    @Test("one at a time: each transform starts after the previous output")
    func serial() {
        #expect(run(maxConcurrent: 1) == ["4 at 400ms", "1 at 500ms", "3 at 800ms", "2 at 1000ms", "finished at 1000ms"])
    }

    @Test("maxConcurrent 4: transforms overlap, outputs stay in input order")
    func concurrent() {
        #expect(run(maxConcurrent: 4) == ["4 at 400ms", "1 at 400ms", "3 at 400ms", "2 at 400ms", "finished at 400ms"])
    }

    @Test("the same program gives the same timeline every time")
    func deterministic() {
        let first = run(maxConcurrent: 2)
        for _ in 0..<20 { #expect(run(maxConcurrent: 2) == first) }
        #expect(first == ["4 at 400ms", "1 at 400ms", "3 at 700ms", "2 at 700ms", "finished at 700ms"])
    }

    @Test("C45 cancelling on virtual time cancels the sleeping transform")
    func cancelOnVirtualTime() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let outcome = Lock<String?>(nil)
        let sub = TestSubscriber<Int, Never>()
        Just(1).asyncMap(executorPreference: executor) { value in
            do {
                try await clock.sleep(for: .seconds(10))
                outcome.withLock { $0 = "slept" }
            } catch {
                outcome.withLock { $0 = "cancelled at \(scheduler.now.nanoseconds / 1_000_000_000)s" }
            }
            return value
        }.subscribe(sub)
        executor.drain()
        scheduler.advance(by: .seconds(3))
        sub.cancel()
        scheduler.run(draining: executor)
        #expect(outcome.withLock { $0 } == "cancelled at 3s")
        #expect(sub.values == [])
    }
}
