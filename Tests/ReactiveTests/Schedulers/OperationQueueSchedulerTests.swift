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
        #expect(thrice.wait(timeout: .now() + 5) == .success)
        timer.cancel()
        Thread.sleep(forTimeInterval: 0.02)
        queue.waitUntilAllOperationsAreFinished()
        let seen = count.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.05)
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
