import Reactive
import ReactiveTestSupport
import Testing

/// C16, C17, C19 for every time operator: completed → freed, cancelled → freed, live → kept.
@Suite("Time operators: lifecycle matrix")
struct TimeLifecycleTests {
    enum Operator: String, CaseIterable, Sendable {
        case delay, debounce, throttleLatest, throttleFirst, timeout, measureInterval
        case collectByTime, collectByTimeOrCount, buffer, receiveOn, subscribeOn
    }

    enum Ending: Sendable { case completed, cancelled, live }

    @Test("C19 lifecycle matrix", arguments: Operator.allCases, [Ending.completed, .cancelled, .live])
    func matrix(op: Operator, ending: Ending) {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, TestError>()
        typealias S = VirtualTimeScheduler.SchedulerTimeType.Stride
        switch op {
        case .delay: check(upstream.delay(for: .seconds(1), scheduler: scheduler), upstream, scheduler, ending)
        case .debounce: check(upstream.debounce(for: .seconds(1), scheduler: scheduler), upstream, scheduler, ending)
        case .throttleLatest:
            check(upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true), upstream, scheduler, ending)
        case .throttleFirst:
            check(upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false), upstream, scheduler, ending)
        case .timeout: check(upstream.timeout(.seconds(10), scheduler: scheduler), upstream, scheduler, ending)
        case .measureInterval: check(upstream.measureInterval(using: scheduler), upstream, scheduler, ending)
        case .collectByTime: check(upstream.collect(.byTime(scheduler, S.seconds(1))), upstream, scheduler, ending)
        case .collectByTimeOrCount:
            check(upstream.collect(.byTimeOrCount(scheduler, S.seconds(1), 2)), upstream, scheduler, ending)
        case .buffer: check(upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropOldest), upstream, scheduler, ending)
        case .receiveOn: check(upstream.receive(on: scheduler), upstream, scheduler, ending)
        case .subscribeOn: check(upstream.subscribe(on: scheduler), upstream, scheduler, ending)
        }
    }

    private func check<P: Publisher>(
        _ publisher: P, _ upstream: ManualPublisher<Int, TestError>, _ scheduler: VirtualTimeScheduler, _ ending: Ending
    ) where P.Failure == TestError {
        weak var weakSub: TestSubscriber<P.Output, TestError>?
        do {
            let sub = TestSubscriber<P.Output, TestError>()
            weakSub = sub
            publisher.subscribe(sub)
            scheduler.advance()
            upstream.send(1)
            scheduler.advance(by: .milliseconds(10))
            switch ending {
            case .completed:
                upstream.send(completion: .finished)
            case .cancelled:
                sub.cancel()
            case .live:
                break
            }
            scheduler.advance(by: .seconds(5))
            #expect(sub.violations.isEmpty)
            if ending == .completed { #expect(sub.completion == .finished) }
        }
        switch ending {
        case .completed, .cancelled:
            #expect(weakSub == nil, "the subscriber must be released")
        case .live:
            #expect(weakSub != nil, "a live subscription keeps its subscriber")
            #expect(upstream.last?.isCancelled == false)
        }
    }
}
