import Dispatch
import Foundation
import Reactive
import ReactiveTestSupport
import Testing

@Suite("Stress: schedulers and time operators", .timeLimit(.minutes(1)))
struct SchedulerStressTests {
    @Test("DispatchQueue runs scheduled and repeating actions")
    func dispatchQueue() {
        let queue = DispatchQueue(label: "test")
        let done = DispatchSemaphore(value: 0)
        let ticks = Counter()
        queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) { done.signal() }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
            if ticks.increment() == 3 { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        timer.cancel()
    }

    @Test("C41 C25 receive(on: concurrent queue): order kept, never overlapping, nothing lost")
    func receiveOnConcurrentQueue() {
        for _ in 0..<20 {
            let upstream = ManualPublisher<Int, Never>()
            let done = DispatchSemaphore(value: 0)
            let sub = TestSubscriber<Int, Never>()
            sub.onCompletion = { _, _ in done.signal() }
            upstream.receive(on: DispatchQueue.global()).subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                // One sender (a publisher's signals are serialised); the others request meanwhile.
                if index == 0 {
                    for value in 0..<500 { upstream.send(value) }
                    upstream.send(completion: .finished)
                } else {
                    for _ in 0..<200 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(sub.values == Array(0..<500))
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("C41 C15 receive(on:) with a concurrent cancel: grammar holds, order kept, no completion after cancel")
    func receiveOnConcurrentCancel() {
        for round in 0..<50 {
            let queue = DispatchQueue(label: "receive-on-\(round)")
            let upstream = ManualPublisher<Int, Never>()
            let sub = TestSubscriber<Int, Never>()
            upstream.receive(on: queue).subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0:
                    for value in 0..<300 { upstream.send(value) }
                    upstream.send(completion: .finished)
                case 1:
                    for _ in 0..<(round % 7) * 20 { _ = queue.sync { sub.values.count } }
                    sub.cancel()
                default:
                    for _ in 0..<100 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            queue.sync {}  // the queue is serial: everything scheduled before now has run
            let values = sub.values
            #expect(values == Array(0..<values.count))
            #expect(sub.violations.isEmpty)
            // A cancel that lost the race to the completion's delivery still leaves a full history.
            if sub.completion == .finished { #expect(values.count == 300) }
            // The serial queue's drain checks the cancel before each delivery: after cancel
            // returns, at most the one delivery already under way, a value or the completion.
            #expect(sub.eventsAfterCancel.count <= 1, "\(sub.eventsAfterCancel)")
        }
    }

    @Test("C08 C25 receive(on:) batching under demand requested from three threads: never more than demanded, in order, serialised")
    func receiveOnBatchesUnderDemand() {
        for _ in 0..<20 {
            let source = DemandSource()
            let done = DispatchSemaphore(value: 0)
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(3))
            // Demand also comes back through receive's return, from the queue's thread.
            sub.onValue = { value, _ in value % 3 == 0 ? .max(1) : .none }
            sub.onCompletion = { _, _ in done.signal() }
            source.receive(on: DispatchQueue.global()).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                if index == 0 {
                    _ = source.drive(0..<400, deadline: deadline)
                } else {
                    for _ in 0..<100 {
                        sub.request(.max(1))
                        sched_yield()
                    }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(sub.values == Array(0..<400))
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
        }
    }

    @Test("C15 C16 receive(on:) drain racing a cancel and requests from other threads: at most the delivery in flight after cancel returns, nothing after, subscriber released")
    func receiveOnDrainRacingCancel() {
        for round in 0..<100 {
            let queue = DispatchQueue(label: "receive-on-race-\(round)")
            let upstream = PassthroughSubject<Int, Never>()
            let cancelReturned = Counter()
            let late = Counter()
            weak var weakSub: TestSubscriber<Int, Never>?
            let finished: Bool
            do {
                let sub = TestSubscriber<Int, Never>()
                weakSub = sub
                sub.onValue = { _, _ in
                    if cancelReturned.value > 0 { late.increment() }
                    return .none
                }
                upstream.receive(on: queue).subscribe(sub)
                // Weakly: the threads keep their closure until they exit, after this returns.
                finished = runConcurrently(threads: 4) { [weak sub] index in
                    switch index {
                    case 0:
                        for value in 0..<2_000 { upstream.send(value) }
                        upstream.send(completion: .finished)
                    case 1:
                        for _ in 0..<(round % 10) * 30 { sched_yield() }
                        sub?.cancel()
                        cancelReturned.increment()
                    default:
                        for _ in 0..<200 { sub?.request(.max(1)) }
                    }
                }
                queue.sync {}  // the queue is serial: every drain scheduled so far has run
                let values = sub.values
                #expect(values == Array(0..<values.count))
                #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
                if sub.completion == .finished { #expect(values.count == 2_000) }
                #expect(sub.eventsAfterCancel.count <= 1, "\(sub.eventsAfterCancel)")
            }
            #expect(finished, "watchdog: threads did not finish")
            // A delivery that checked the flag just before the cancel may still run; no second one.
            #expect(late.value <= 1)
            queue.sync {}
            #expect(weakSub == nil, "the subscriber is released once the queue is drained")
        }
    }

    @Test("C25 C36 combineLatest of two sources driven from two threads while two threads request")
    func combineLatestConcurrent() {
        for _ in 0..<20 {
            let a = DemandSource()
            let b = DemandSource()
            let sub = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1))
            sub.onValue = { _, _ in .max(1) }
            a.combineLatest(b).subscribe(sub)
            let deadline = Date() + 5
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: _ = a.drive(0..<300, deadline: deadline)
                case 1: _ = b.drive(0..<300, deadline: deadline)
                default: for _ in 0..<150 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog")
            #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
            let values = sub.values
            // Each side only moves forward, and the last combination holds both last values.
            #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
            #expect(values.last.map { $0 == (299, 299) } == true)
            #expect(sub.completion == .finished)
        }
    }

    @Test("C42 VirtualTimeScheduler: scheduling from 4 threads, every action runs once, in time then enqueue order")
    func virtualSchedulingFromThreads() {
        let scheduler = VirtualTimeScheduler()
        let ran = Lock<[(time: Int64, thread: Int, index: Int)]>([])
        let overlap = OverlapDetector()
        let finished = runConcurrently(threads: 4) { thread in
            for index in 0..<500 {
                let at = VirtualTimeScheduler.SchedulerTimeType(nanoseconds: Int64(index % 50))
                scheduler.schedule(after: at) {
                    overlap.enter()
                    ran.withLock { $0.append((scheduler.now.nanoseconds, thread, index)) }
                    overlap.leave()
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(scheduler.pendingCount == 2000)
        scheduler.run()
        let log = ran.withLock { $0 }
        #expect(log.count == 2000)
        #expect(overlap.overlapCount == 0)
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Per thread, actions due at the same time keep that thread's enqueue order.
        for thread in 0..<4 {
            let mine = log.filter { $0.thread == thread }
            #expect(zip(mine, mine.dropFirst()).allSatisfy { $0.time < $1.time || $0.index < $1.index })
        }
    }

    @Test("C42 VirtualTimeScheduler: concurrent advance, schedule and cancel never run actions at once or twice")
    func virtualConcurrentAdvance() {
        let scheduler = VirtualTimeScheduler()
        let overlap = OverlapDetector()
        let counts = Counter()
        let timers = Lock<[AnyCancellable]>([])
        let finished = runConcurrently(threads: 4) { thread in
            for index in 0..<300 {
                switch thread {
                case 0, 1:
                    scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(index % 5))) {
                        overlap.enter()
                        counts.increment()
                        overlap.leave()
                    }
                case 2:
                    let timer = scheduler.schedule(after: scheduler.now, interval: .nanoseconds(3)) {
                        overlap.enter()
                        overlap.leave()
                    }
                    let handle = AnyCancellable(timer)
                    if index % 2 == 0 { handle.cancel() } else { timers.withLock { $0.append(handle) } }
                default:
                    scheduler.advance(by: .nanoseconds(1))
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        timers.withLock { $0.forEach { $0.cancel() } }
        scheduler.run()
        #expect(counts.value == 600)
        #expect(overlap.overlapCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("ManualTaskExecutor: jobs enqueued from 4 threads all run, one at a time, on the draining thread")
    func executorFromThreads() {
        let executor = ManualTaskExecutor()
        let overlap = OverlapDetector()
        let counter = Counter()
        let threads = Lock<[pthread_t]>([])
        let finished = runConcurrently(threads: 4) { _ in
            for _ in 0..<100 {
                Task(executorPreference: executor) {
                    overlap.enter()
                    counter.increment()
                    threads.withLock { $0.append(pthread_self()) }
                    overlap.leave()
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        // The drains run here, synchronously: every job must run on this thread.
        let drainer = pthread_self()
        var drained = 0
        while drained < 400 { drained += executor.drain() }
        #expect(counter.value == 400)
        #expect(overlap.overlapCount == 0)
        let ran = threads.withLock { $0 }
        #expect(ran.count == 400)
        #expect(ran.allSatisfy { pthread_equal($0, drainer) != 0 }, "a job ran off the draining thread")
    }

    @Test("C39 C14 timeout and debounce on a real queue with a racing cancel: one completion at most, nothing after cancel")
    func timeOperatorsRacingCancel() {
        for round in 0..<40 {
            let queue = DispatchQueue(label: "time-\(round)")
            let upstream = ManualPublisher<Int, Never>()
            let timeoutSub = TestSubscriber<Int, Never>()
            let debounceSub = TestSubscriber<Int, Never>()
            upstream.timeout(.microseconds(50), scheduler: queue).subscribe(timeoutSub)
            upstream.debounce(for: .microseconds(20), scheduler: queue).subscribe(debounceSub)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0:
                    for value in 0..<200 {
                        upstream.send(value, to: 0)
                        upstream.send(value, to: 1)
                    }
                case 1: timeoutSub.cancel()
                case 2: debounceSub.cancel()
                default:
                    for _ in 0..<50 { timeoutSub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            queue.sync {}
            for sub in [timeoutSub, debounceSub] {
                // The C15 check on the cancelling thread is among the violations.
                #expect(sub.violations.isEmpty, "\(sub.violations.prefix(3))")
                let values = sub.values
                #expect(values == values.sorted())
                // Both deliver on the serial queue, which checks the cancel before each
                // delivery: after cancel returns, at most the one already under way.
                #expect(sub.eventsAfterCancel.count <= 1, "\(sub.eventsAfterCancel)")
            }
        }
    }

    @Test("C25 delay on a concurrent queue keeps order and never overlaps")
    func delayConcurrentQueue() {
        let done = DispatchSemaphore(value: 0)
        let sub = TestSubscriber<Int, Never>()
        sub.onCompletion = { _, _ in done.signal() }
        let upstream = ManualPublisher<Int, Never>()
        upstream.delay(for: .microseconds(10), scheduler: DispatchQueue.global()).subscribe(sub)
        let finished = runConcurrently(threads: 4) { index in
            if index == 0 {
                for value in 0..<2000 { upstream.send(value) }
                upstream.send(completion: .finished)
            } else {
                for _ in 0..<100 { sub.request(.max(1)) }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(sub.values == Array(0..<2000))
        #expect(sub.violations.isEmpty)
    }
}

@Suite("Stress: buffer, throttle, collect", .timeLimit(.minutes(1)))
struct BufferingStressTests {
    @Test("C08 C25 buffer: requests from 3 threads while upstream sends: in order, never beyond demand, never overlapping")
    func bufferConcurrentRequests() {
        for _ in 0..<50 {
            let upstream = ManualPublisher<Int, Never>()
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            upstream.buffer(size: 1000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                if index == 0 {
                    for value in 0..<300 { upstream.send(value) }
                    upstream.send(completion: .finished)
                } else {
                    for _ in 0..<100 { sub.request(.max(1)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.values == Array(0..<300))
            #expect(sub.completion == .finished)
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("C14 C28 throttle and collect on a real queue, with a racing cancel and completion")
    func throttleAndCollectRacingCancel() {
        for round in 0..<40 {
            let queue = DispatchQueue(label: "buffering-\(round)")
            let upstream = ManualPublisher<Int, Never>()
            let throttled = TestSubscriber<Int, Never>()
            let collected = TestSubscriber<[Int], Never>()
            upstream.throttle(for: .microseconds(30), scheduler: queue, latest: round % 2 == 0).subscribe(throttled)
            upstream.collect(.byTimeOrCount(queue, .microseconds(30), 7)).subscribe(collected)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0:
                    for value in 0..<200 {
                        upstream.send(value, to: 0)
                        upstream.send(value, to: 1)
                    }
                    upstream.send(completion: .finished, to: 0)
                    upstream.send(completion: .finished, to: 1)
                case 1: throttled.cancel()
                case 2: collected.cancel()
                default: collected.request(.max(5))
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            queue.sync {}
            #expect(throttled.violations.isEmpty, "\(throttled.violations.prefix(3))")
            #expect(collected.violations.isEmpty, "\(collected.violations.prefix(3))")
            #expect(throttled.values == throttled.values.sorted())
            let flat = collected.values.flatMap { $0 }
            #expect(flat == flat.sorted())
            // Nothing after cancel beyond what was in flight: throttle delivers on the serial
            // queue (one at most); a collect group can also leave on the sending thread and on a
            // requesting one (three at most).
            #expect(throttled.eventsAfterCancel.count <= 1, "\(throttled.eventsAfterCancel)")
            #expect(collected.eventsAfterCancel.count <= 3, "\(collected.eventsAfterCancel)")
        }
    }
}
