import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

@Suite struct ConcurrencyTests {
    @Test("C02/C25 events stay serialised and end with one terminal when cancel races values from another thread")
    func cancelRace() throws {
        for _ in 0..<20 {
            let session = Session(runtime: Runtime(clock: .real))
            let (statements, _) = session.compile("interval 1ms | merge (interval 1ms) | map { $0 + 1 }", file: "t")
            guard case .success(.run(let p)) = session.execute(statements[0]) else { return }
            let inside = Atomic<Int>(0)
            let overlaps = Atomic<Int>(0)
            let events = Lock<[String]>([])
            let c = p.start(trace: true) { e in
                if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
                events.withLock { $0.append(describe(e)) }
                inside.subtract(1, ordering: .sequentiallyConsistent)
            }
            // Let a few values flow, then cancel from two threads at once.
            let deadline = Date().addingTimeInterval(2)
            while events.withLock({ $0.filter { $0.hasPrefix("value") }.count }) < 3, Date() < deadline { usleep(500) }
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
