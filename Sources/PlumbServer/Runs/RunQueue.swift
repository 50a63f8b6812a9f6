import Foundation

/// The room's runs: at most `slots` children at once, the rest waiting in line (at most
/// `maxWaiting`), first come first served. A waiting request learns its place as it changes.
final class RunQueue: Sendable {
    private struct State {
        var running = 0
        var waiting: [UInt64] = []
        var nextTicket: UInt64 = 0
    }

    let slots: Int
    let maxWaiting: Int
    private let condition = NSCondition()
    private let state = LockedState(State())

    init(slots: Int, maxWaiting: Int) {
        self.slots = max(1, slots)
        self.maxWaiting = maxWaiting
    }

    /// Runs and waiting, for the teacher's page and the tests.
    var counts: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Waits for a slot, runs `body` in it, and frees the slot.
    /// - Parameters:
    ///   - place: told the place in line (1: next) whenever it changes; returns false to give up.
    /// - Returns: nil when the line is full or the waiter gave up; `body`'s result otherwise.
    func run<T>(place: (Int) -> Bool, _ body: () -> T) -> T? {
        condition.lock()
        let ticket: UInt64? = state.withLock { s in
            guard s.waiting.count < maxWaiting else { return nil }
            s.nextTicket += 1
            s.waiting.append(s.nextTicket)
            return s.nextTicket
        }
        guard let ticket else {
            condition.unlock()
            return nil
        }
        var lastPlace = 0
        while true {
            let (mine, position) = state.withLock { s -> (Bool, Int) in
                let index = s.waiting.firstIndex(of: ticket) ?? 0
                if index == 0 && s.running < slots {
                    s.waiting.removeFirst()
                    s.running += 1
                    return (true, 0)
                }
                return (false, index + 1)
            }
            if mine { break }
            if position != lastPlace {
                lastPlace = position
                condition.unlock()
                let stay = place(position)
                condition.lock()
                if !stay {
                    state.withLock { s in s.waiting.removeAll { $0 == ticket } }
                    condition.broadcast()
                    condition.unlock()
                    return nil
                }
                continue
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.5))
        }
        condition.unlock()
        defer {
            condition.lock()
            state.withLock { $0.running -= 1 }
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
