import Foundation
import Reactive
import ReactiveTestSupport
import Synchronization
import Testing

/// A thread that services its own run loop until stopped.
private final class RunLoopThread: @unchecked Sendable {
    // @unchecked: `loop` is written once before `init` returns (the semaphore orders it); the rest is atomic.
    private(set) var loop: RunLoop!
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            loop = RunLoop.current
            // A far-off timer keeps `run(until:)` waiting instead of returning at once.
            loop.add(Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .default)
            ready.signal()
            while !stopped.load(ordering: .acquiring) {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
            }
            done.signal()
        }
        thread.start()
        ready.wait()
    }

    /// Whether the caller is on this thread's run loop.
    func isCurrent() -> Bool { RunLoop.current === loop }

    func stop() {
        stopped.store(true, ordering: .releasing)
        _ = done.wait(timeout: .now() + 5)
    }
}

@Suite("RunLoop as a Scheduler")
struct RunLoopSchedulerTests {
    @Test("schedule runs the action on the run loop's thread")
    func immediate() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let ran = DispatchSemaphore(value: 0)
        let onLoop = Atomic<Bool>(false)
        thread.loop.schedule {
            onLoop.store(thread.isCurrent(), ordering: .relaxed)
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)
        let wasOnLoop = onLoop.load(ordering: .relaxed)
        #expect(wasOnLoop)
    }

    @Test("schedule(after:) waits until the date")
    func after() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let loop = thread.loop!
        let start = Date()
        let ran = DispatchSemaphore(value: 0)
        let elapsed = Mutex<TimeInterval>(0)
        loop.schedule(after: loop.now.advanced(by: .milliseconds(30))) {
            elapsed.withLock { $0 = Date().timeIntervalSince(start) }
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)
        #expect(elapsed.withLock { $0 } >= 0.029)
    }

    @Test("a repeating action repeats until cancelled")
    func repeating() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let loop = thread.loop!
        let count = Atomic<Int>(0)
        let thrice = DispatchSemaphore(value: 0)
        let timer = loop.schedule(after: loop.now, interval: .milliseconds(5)) {
            if count.add(1, ordering: .relaxed).newValue == 3 { thrice.signal() }
        }
        #expect(thrice.wait(timeout: .now() + 30) == .success)
        timer.cancel()
        // The loop runs one action at a time: once a marker scheduled after the cancel has run,
        // no tick is under way. Then a witness repeating on the same loop ticks 5 times, time
        // counted on the loop itself, in which the cancelled one must not tick.
        let marker = DispatchSemaphore(value: 0)
        loop.schedule { marker.signal() }
        #expect(marker.wait(timeout: .now() + 30) == .success)
        let seen = count.load(ordering: .relaxed)
        let witnessTicks = Atomic<Int>(0)
        let fiveMore = DispatchSemaphore(value: 0)
        let witness = loop.schedule(after: loop.now, interval: .milliseconds(5)) {
            if witnessTicks.add(1, ordering: .relaxed).newValue == 5 { fiveMore.signal() }
        }
        #expect(fiveMore.wait(timeout: .now() + 30) == .success)
        witness.cancel()
        #expect(count.load(ordering: .relaxed) == seen)
    }

    @Test("strides are seconds, and time types measure distances")
    func timeType() {
        let a = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 100))
        let b = a.advanced(by: .milliseconds(1500))
        #expect(a.distance(to: b).magnitude == 1.5)
        #expect(RunLoop.SchedulerTimeType.Stride(2).magnitude == 2)
        #expect((RunLoop.SchedulerTimeType.Stride.seconds(1) + 0.5).magnitude == 1.5)
        #expect(b > a)
    }

    @Test("C41 receive(on:) a run loop delivers values and completion in order, on its thread")
    func receiveOn() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let finished = DispatchSemaphore(value: 0)
        let offLoop = Atomic<Int>(0)
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, _ in
            if !thread.isCurrent() { offLoop.add(1, ordering: .relaxed) }
            return .none
        }
        sub.onCompletion = { _, _ in finished.signal() }
        (1...5).publisher.receive(on: thread.loop).subscribe(sub)
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(offLoop.load(ordering: .relaxed) == 0)
        #expect(sub.violations.isEmpty)
    }
}
