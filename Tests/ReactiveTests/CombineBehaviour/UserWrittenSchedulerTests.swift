import Dispatch
import Reactive
import Testing

// Issue 41: custom schedulers and scheduler wrappers written for Combine must compile unchanged.
// Combine's documentation declares every `Scheduler.schedule` requirement with a plain
// `@escaping () -> Void` action (no `@Sendable`), so the two types below are written exactly as a
// Combine user writes them: non-`Sendable` classes and structs that store and forward plain
// closures. If the protocol drifts back to `@Sendable` actions, this file stops compiling.

/// A test scheduler in the shape Combine users write (a class that stores plain actions and runs
/// them when the test advances its clock), generic over the time type like Point-Free's.
private final class UserTestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private var lastSequence = 0
    private var scheduled: [(sequence: Int, date: SchedulerTimeType, action: () -> Void)] = []
    private(set) var now: SchedulerTimeType

    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    init(now: SchedulerTimeType) { self.now = now }

    /// Runs every action due up to `now + stride`, in time order, then leaves the clock there.
    func advance(by stride: SchedulerTimeType.Stride = .zero) {
        let end = now.advanced(by: stride)
        while let next = scheduled.filter({ $0.date <= end }).min(by: { ($0.date, $0.sequence) < ($1.date, $1.sequence) }) {
            scheduled.removeAll { $0.sequence == next.sequence }
            now = Swift.max(now, next.date)
            next.action()
        }
        now = end
    }

    private func nextSequence() -> Int {
        lastSequence += 1
        return lastSequence
    }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduled.append((nextSequence(), now, action))
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduled.append((nextSequence(), date, action))
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let sequence = nextSequence()
        func tick(at date: SchedulerTimeType) -> () -> Void {
            { [weak self] in
                self?.scheduled.append((sequence, date.advanced(by: interval), tick(at: date.advanced(by: interval))))
                action()
            }
        }
        scheduled.append((sequence, date, tick(at: date)))
        return AnyCancellable { [weak self] in self?.scheduled.removeAll { $0.sequence == sequence } }
    }
}

/// A wrapper in the shape Combine users write (a struct that forwards to another scheduler and
/// wraps each action in a closure of its own), here counting the actions that ran.
private struct CountingScheduler<Base: Scheduler>: Scheduler {
    final class Counter { var ran = 0 }

    let base: Base
    let counter = Counter()

    var now: Base.SchedulerTimeType { base.now }
    var minimumTolerance: Base.SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: Base.SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options) {
            counter.ran += 1
            action()
        }
    }

    func schedule(
        after date: Base.SchedulerTimeType, tolerance: Base.SchedulerTimeType.Stride, options: Base.SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options) {
            counter.ran += 1
            action()
        }
    }

    func schedule(
        after date: Base.SchedulerTimeType, interval: Base.SchedulerTimeType.Stride,
        tolerance: Base.SchedulerTimeType.Stride, options: Base.SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options) {
            counter.ran += 1
            action()
        }
    }
}

@Suite("Combine behaviour: schedulers written for Combine compile and work unchanged")
struct UserWrittenSchedulerTests {
    private typealias TestScheduler = UserTestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>

    private func makeScheduler() -> TestScheduler {
        TestScheduler(now: DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    // The report: `scheduler.schedule { count += 1 }` must compile in Swift 6 mode, as it
    // does against Combine (the action mutates a local var, so it cannot be `@Sendable`).
    @Test("schedule { count += 1 } compiles and runs on the library's schedulers")
    func mutatingActionCompiles() {
        var count = 0
        ImmediateScheduler.shared.schedule { count += 1 }
        let virtual = VirtualTimeScheduler()
        virtual.schedule { count += 1 }
        virtual.schedule(after: virtual.now.advanced(by: .seconds(1))) { count += 1 }
        let ticks = virtual.schedule(after: virtual.now, interval: .seconds(1)) { count += 10 }
        virtual.advance(by: .seconds(1))
        ticks.cancel()
        #expect(count == 1 + 1 + 1 + 20)
    }

    @Test("schedule { count += 1 } on a dispatch queue runs on the queue")
    func mutatingActionOnDispatchQueue() {
        let queue = DispatchQueue(label: "user-written-scheduler")
        var count = 0
        queue.schedule { count += 1 }
        queue.sync {}
        #expect(count == 1)
    }

    // Combine's documentation of receive(on:): downstream messages are delivered on the scheduler.
    @Test("receive(on:) a user-written scheduler delivers when that scheduler runs its actions")
    func receiveOnUserScheduler() {
        let scheduler = makeScheduler()
        var received: [Int] = []
        let cancellable = [1, 2, 3].publisher.receive(on: scheduler).sink { received.append($0) }
        #expect(received.isEmpty)
        scheduler.advance()
        #expect(received == [1, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    // Combine's documentation of delay(for:scheduler:): each value is delivered `interval` later.
    @Test("delay on a user-written scheduler holds each value for the interval")
    func delayOnUserScheduler() {
        let scheduler = makeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.delay(for: .seconds(1), scheduler: scheduler).sink { received.append($0) }
        subject.send(1)
        scheduler.advance(by: .milliseconds(999))
        #expect(received.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(received == [1])
        withExtendedLifetime(cancellable) {}
    }

    // Combine's documentation of debounce(for:scheduler:): a value is published only after the
    // interval passes with no newer value.
    @Test("debounce on a user-written scheduler publishes the last value after a quiet interval")
    func debounceOnUserScheduler() {
        let scheduler = makeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler).sink { received.append($0) }
        subject.send(1)
        scheduler.advance(by: .milliseconds(500))
        subject.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(received.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(received == [2])
        withExtendedLifetime(cancellable) {}
    }

    @Test("a wrapper scheduler forwards receive(on:), delay and debounce to its base")
    func wrapperScheduler() {
        let base = VirtualTimeScheduler()
        let wrapper = CountingScheduler(base: base)
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellables = [
            subject.receive(on: wrapper).sink { received.append("on \($0)") },
            subject.delay(for: .seconds(1), scheduler: wrapper).sink { received.append("delay \($0)") },
            subject.debounce(for: .seconds(2), scheduler: wrapper).sink { received.append("debounce \($0)") },
        ]
        subject.send(7)
        base.advance(by: .seconds(3))
        #expect(received == ["on 7", "delay 7", "debounce 7"])
        #expect(wrapper.counter.ran >= 3)
        withExtendedLifetime(cancellables) {}
    }
}
