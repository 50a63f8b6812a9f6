import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

@Suite struct ConcurrencyTests {
    /// What one race saw.
    struct RaceOutcome: Sendable {
        var valuesBeforeCancel = 0
        var cancellersDone = false
        var overlaps = 0
        var events: [String] = []
    }

    @Test("C02/C25 events stay serialised and end with one terminal when cancel races values from another thread", .hangLimit)
    func cancelRace() async throws {
        for _ in 0..<20 {
            let session = Session(runtime: Runtime(clock: .real))
            let (statements, _) = session.compile("interval 1ms | merge (interval 1ms) | map { $0 + 1 }", file: "t")
            let p = try #require(session.execute(statements[0]).pipeline)
            // The waits below block their thread: on one of its own, not on the cooperative pool
            // (two threads on a 2-core machine) that the parallel run's async tests need.
            let outcome = await offThePool { Self.race(p) }
            #expect(outcome.valuesBeforeCancel >= 3, "fewer than 3 values before the cancel")
            #expect(outcome.cancellersDone)
            #expect(outcome.overlaps == 0)
            #expect(outcome.events.filter { $0 == "cancelled" }.count == 1)
            #expect(outcome.events.last == "cancelled", "\(outcome.events.suffix(4))")
        }
    }

    /// Starts `p`, lets a few values flow (the deadline only catches a hang), then cancels it from
    /// four threads at once.
    static func race(_ p: Pipeline) -> RaceOutcome {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let events = Lock<[String]>([])
        let c = p.start(trace: true) { e in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
            events.withLock { $0.append(describe(e)) }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        var outcome = RaceOutcome()
        let deadline = Date().addingTimeInterval(30)
        while events.withLock({ $0.filter { $0.hasPrefix("value") }.count }) < 3, Date() < deadline { usleep(500) }
        outcome.valuesBeforeCancel = events.withLock { $0.filter { $0.hasPrefix("value") }.count }
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        // Threads of their own, not DispatchQueue.global(): the tests running at the same time can
        // occupy every thread of its pool.
        for _ in 0..<4 {
            done.enter()
            onThreadOfItsOwn {
                gate.wait()
                c.cancel()
                done.leave()
            }
        }
        for _ in 0..<4 { gate.signal() }
        outcome.cancellersDone = done.wait(timeout: .now() + 5) == .success
        usleep(5_000)
        outcome.overlaps = overlaps.load(ordering: .relaxed)
        outcome.events = events.withLock { $0 }
        return outcome
    }
}
