import Foundation
import Synchronization
import Testing

@testable import PipeLanguage

/// One run's events, from several threads, delivered one at a time in order: the queue before
/// the deliverer is bounded, so a deliverer that blocks (a terminal that is not read) holds the
/// senders back instead of letting the queue grow without bound (issue 41).
@Suite struct EventSerializerTests {
    /// A deliverer that blocks on its first event until `open` is signalled, recording the rest.
    final class BlockedSink: Sendable {
        let open = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let seen = Mutex<[PipelineEvent]>([])

        func receive(_ event: PipelineEvent) {
            let first = seen.withLock { seen -> Bool in
                seen.append(event)
                return seen.count == 1
            }
            if first {
                entered.signal()
                open.wait()
            }
        }
    }

    /// Waits (bounded) until `condition` holds; false if it never did.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("while the deliverer is blocked, senders on other threads wait once the queue is full; nothing is lost or reordered")
    func boundedWhileBlocked() throws {
        let sink = BlockedSink()
        let events = EventSerializer { sink.receive($0) }
        // The deliverer: this event blocks its thread in the sink.
        Thread.detachNewThread { events.send(.subscribed) }
        sink.entered.wait()
        let senders = 4
        let perSender = 3 * EventSerializer.capacity
        let done = DispatchGroup()
        for sender in 0..<senders {
            done.enter()
            Thread.detachNewThread {
                for i in 0..<perSender { events.send(.value(.int(sender * 1_000_000 + i))) }
                done.leave()
            }
        }
        // Every sender ends up waiting, with the queue at its bound (before the bound, the queue
        // took all 49,152 events and no sender waited).
        #expect(Self.eventually { events.pending.waiting == senders }, "\(events.pending)")
        #expect(events.pending.queued == EventSerializer.capacity)
        sink.open.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        events.send(.finished, terminal: true)
        // A sender is done once its events are queued, not delivered: the deliverer may still be
        // draining on its own thread (it did, under CI's parallel run), so wait for the end.
        #expect(Self.eventually { sink.seen.withLock { $0.last == .finished } })
        let seen = sink.seen.withLock { $0 }
        #expect(seen.first == .subscribed)
        #expect(seen.last == .finished)
        #expect(seen.count == 2 + senders * perSender)
        // Each sender's values in the order it sent them.
        for sender in 0..<senders {
            let mine = seen.compactMap { event -> Int? in
                guard case .value(.int(let n)) = event, n / 1_000_000 == sender else { return nil }
                return n % 1_000_000
            }
            #expect(mine == Array(0..<perSender))
        }
    }

    @Test("a terminal event never waits, and lets waiting senders go (Ctrl-C while the terminal is stopped)")
    func terminalGetsThrough() throws {
        let sink = BlockedSink()
        let events = EventSerializer { sink.receive($0) }
        Thread.detachNewThread { events.send(.subscribed) }
        sink.entered.wait()
        let done = DispatchGroup()
        done.enter()
        Thread.detachNewThread {
            for i in 0..<(2 * EventSerializer.capacity) { events.send(.value(.int(i))) }
            done.leave()
        }
        #expect(Self.eventually { events.pending.waiting == 1 })
        // From another thread, while the deliverer is still blocked: queued at once.
        events.send(.cancelled, terminal: true)
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(events.isTerminated)
        sink.open.signal()
        #expect(Self.eventually { sink.seen.withLock { $0.last } == .cancelled })
        #expect(sink.seen.withLock { $0.count } == 2 + EventSerializer.capacity)
    }

    @Test("an event sent from inside the deliverer (re-entrantly) never waits on itself")
    func reentrantNeverWaits() {
        let count = Mutex(0)
        // Re-entrant sends beyond the bound, all from the delivering thread.
        let box = Mutex<EventSerializer?>(nil)
        let reentrant = EventSerializer { event in
            count.withLock { $0 += 1 }
            if event == .subscribed, let me = box.withLock({ $0 }) {
                for i in 0..<(2 * EventSerializer.capacity) { me.send(.value(.int(i))) }
            }
        }
        box.withLock { $0 = reentrant }
        reentrant.send(.subscribed)
        #expect(count.withLock { $0 } == 1 + 2 * EventSerializer.capacity)
        box.withLock { $0 = nil }
    }
}
