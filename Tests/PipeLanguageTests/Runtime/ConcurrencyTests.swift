import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

@Suite struct ConcurrencyTests {
    @Test("C02/C25 events stay serialised and end with one terminal when cancel races values from another thread", .timeLimit(.minutes(1)))
    func cancelRace() throws {
        for _ in 0..<20 {
            let session = Session(runtime: Runtime(clock: .real))
            let (statements, _) = session.compile("interval 1ms | merge (interval 1ms) | map { $0 + 1 }", file: "t")
            let p = try #require(session.execute(statements[0]).pipeline)
            let inside = Atomic<Int>(0)
            let overlaps = Atomic<Int>(0)
            let events = Lock<[String]>([])
            let c = p.start(trace: true) { e in
                if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
                events.withLock { $0.append(describe(e)) }
                inside.subtract(1, ordering: .sequentiallyConsistent)
            }
            // Let a few values flow (the deadline only catches a hang), then cancel from four threads at once.
            let deadline = Date().addingTimeInterval(30)
            while events.withLock({ $0.filter { $0.hasPrefix("value") }.count }) < 3, Date() < deadline { usleep(500) }
            #expect(events.withLock { $0.filter { $0.hasPrefix("value") }.count } >= 3, "fewer than 3 values before the cancel")
            let gate = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: done) {
                    gate.wait()
                    c.cancel()
                }
            }
            for _ in 0..<4 { gate.signal() }
            #expect(done.wait(timeout: .now() + 5) == .success)
            usleep(5_000)
            let seen = events.withLock { $0 }
            #expect(overlaps.load(ordering: .relaxed) == 0)
            #expect(seen.filter { $0 == "cancelled" }.count == 1)
            #expect(seen.last == "cancelled", "\(seen.suffix(4))")
        }
    }
}
