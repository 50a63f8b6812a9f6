import Testing
import Reactive
import ReactiveTestSupport

@Suite("Publishers: Future")
struct FutureTests {
    @Test("C31 the closure runs once, at creation, not on subscribe")
    func runsOnceAtCreation() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(1))
        }
        #expect(runs == 1)
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        future.subscribe(a)
        future.subscribe(b)
        #expect(runs == 1)
        #expect(a.events == [.subscription, .value(1), .finished])
        #expect(b.events == [.subscription, .value(1), .finished])
    }

    @Test("C31 the first promise call wins")
    func firstWins() {
        let future = Future<Int, TestError> { promise in
            promise(.success(1))
            promise(.success(2))
            promise(.failure(TestError()))
        }
        let sub = TestSubscriber<Int, TestError>()
        future.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .finished])
    }

    @Test("C31 the value waits for demand")
    func waitsForDemand() {
        let future = Future<Int, Never> { $0(.success(3)) }
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(sub)
        #expect(sub.events == [.subscription])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C31 a later promise reaches subscribers that are already waiting")
    func laterPromise() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(a)
        future.subscribe(b)
        #expect(a.events == [.subscription])
        fulfil?(.success(9))
        #expect(a.events == [.subscription, .value(9), .finished])
        #expect(b.events == [.subscription])
        b.request(.max(1))
        #expect(b.events == [.subscription, .value(9), .finished])
    }

    @Test("C03 a failure is delivered without demand")
    func failureWithoutDemand() {
        let future = Future<Int, TestError> { $0(.failure(TestError("f"))) }
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError("f"))])
    }

    @Test("C05 cancel before the result: nothing is delivered")
    func cancelBefore() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let sub = TestSubscriber<Int, Never>()
        future.subscribe(sub)
        sub.cancel()
        fulfil?(.success(1))
        #expect(sub.events == [.subscription])
    }

    @Test("C05 cancel from inside receive suppresses the completion")
    func cancelInsideReceive() {
        let future = Future<Int, Never> { $0(.success(1)) }
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, s in
            s.cancel()
            return .none
        }
        future.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1)])
    }

    @Test("C16 cancel releases the subscriber")
    func cancelReleases() {
        final class Token {}
        let future = Future<Int, Never> { _ in }
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = future.sink { _ in withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil)
        cancellable?.cancel()
        #expect(weakToken == nil)
    }

    @Test("C01 subscription first, even when the result is already there")
    func subscriptionFirst() {
        let future = Future<Int, Never> { $0(.success(1)) }
        let sub = TestSubscriber<Int, Never>()
        future.subscribe(sub)
        #expect(sub.violations.isEmpty)
        #expect(sub.events.first == .subscription)
    }
}

@Suite("Publishers: Deferred")
struct DeferredTests {
    @Test("C32 the factory runs per subscription, at subscribe time")
    func perSubscription() {
        var made = 0
        let deferred = Deferred { () -> Just<Int> in
            made += 1
            return Just(made)
        }
        #expect(made == 0)
        let a = TestSubscriber<Int, Never>()
        deferred.subscribe(a)
        #expect(made == 1)
        let b = TestSubscriber<Int, Never>()
        deferred.subscribe(b)
        #expect(made == 2)
        #expect(a.values == [1])
        #expect(b.values == [2])
    }

    @Test("C32 Deferred { Future } is lazy: the future's work starts on subscribe")
    func lazyFuture() {
        var started = 0
        let lazy = Deferred {
            Future<Int, Never> { promise in
                started += 1
                promise(.success(started))
            }
        }
        #expect(started == 0)
        let sub = TestSubscriber<Int, Never>()
        lazy.subscribe(sub)
        #expect(started == 1)
        #expect(sub.events == [.subscription, .value(1), .finished])
    }

    @Test("failure and demand pass through")
    func passesThrough() {
        let failing = Deferred { Fail<Int, TestError>(error: TestError()) }
        let f = TestSubscriber<Int, TestError>()
        failing.subscribe(f)
        #expect(f.events == [.subscription, .failure(TestError())])
        let limited = Deferred { (1...5).publisher }
        let l = TestSubscriber<Int, Never>(initialDemand: .max(2))
        limited.subscribe(l)
        #expect(l.values == [1, 2])
    }
}
