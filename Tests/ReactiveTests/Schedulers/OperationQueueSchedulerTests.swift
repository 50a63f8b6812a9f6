import Foundation
import Reactive
import ReactiveTestSupport
import Synchronization
import Testing

@Suite("OperationQueue as a Scheduler")
struct OperationQueueSchedulerTests {
    @Test("schedule adds an operation to the queue")
    func immediate() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = Mutex<[Int]>([])
        for n in 1...5 { queue.schedule { order.withLock { $0.append(n) } } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(order.withLock { $0 } == [1, 2, 3, 4, 5])
    }

    @Test("schedule(after:) waits until the date")
    func after() {
        let queue = OperationQueue()
        let start = Date()
        let ran = DispatchSemaphore(value: 0)
        let elapsed = Mutex<TimeInterval>(0)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(30))) {
            elapsed.withLock { $0 = Date().timeIntervalSince(start) }
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)
        #expect(elapsed.withLock { $0 } >= 0.029)
    }

    @Test("a repeating action repeats until cancelled")
    func repeating() {
        let queue = OperationQueue()
        let count = Atomic<Int>(0)
        let thrice = DispatchSemaphore(value: 0)
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            if count.add(1, ordering: .relaxed).newValue == 3 { thrice.signal() }
        }
        #expect(thrice.wait(timeout: .now() + 30) == .success)
        timer.cancel()
        // Time counted on the queue, not the wall clock: a witness repeating on the same queue
        // ticks 5 times (a tick of the cancelled one that was under way lands meanwhile), then 5
        // more, in which the cancelled one must not tick.
        let witnessTicks = Atomic<Int>(0)
        let ticked = DispatchSemaphore(value: 0)
        let witness = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            if witnessTicks.add(1, ordering: .relaxed).newValue % 5 == 0 { ticked.signal() }
        }
        #expect(ticked.wait(timeout: .now() + 30) == .success)
        let seen = count.load(ordering: .relaxed)
        #expect(ticked.wait(timeout: .now() + 30) == .success)
        witness.cancel()
        #expect(count.load(ordering: .relaxed) == seen)
    }

    @Test("C41 receive(on:) and delay on a serial operation queue keep order and demand")
    func operators() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let finished = DispatchSemaphore(value: 0)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        sub.onCompletion = { _, _ in finished.signal() }
        [1, 2, 3].publisher
            .delay(for: .milliseconds(10), scheduler: queue)
            .receive(on: queue)
            .subscribe(sub)
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("strides are seconds")
    func timeType() {
        let a = OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 0))
        // A `Date` is a `Double` of seconds since 2001, so a microsecond distance is not exact.
        #expect(abs(a.distance(to: a.advanced(by: .microseconds(250))).magnitude - 0.00025) < 1e-6)
        #expect(OperationQueue.SchedulerTimeType.Stride(0.5) == .milliseconds(500))
    }
}
