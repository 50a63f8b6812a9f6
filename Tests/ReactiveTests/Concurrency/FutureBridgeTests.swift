import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: Future, Deferred and subject streams as the articles use them")
struct FutureBridgeTests {
    @Test("C31 Future runs its closure at creation and replays its one result to every subscriber")
    func futureIsEager() {
        let runs = Counter()
        let future = Future<Int, Never> { promise in
            runs.increment()
            promise(.success(7))
        }
        #expect(runs.value == 1, "ran before any subscriber")
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        future.subscribe(first)
        future.subscribe(second)
        #expect(runs.value == 1)
        #expect(first.events == [.subscription, .value(7), .finished])
        #expect(second.events == [.subscription, .value(7), .finished])
    }

    @Test("C32 Deferred { Future } runs the closure once per subscription, at subscribe time")
    func deferredIsLazy() {
        let runs = Counter()
        let lazy = Deferred {
            Future<Int, Never> { promise in
                promise(.success(runs.increment()))
            }
        }
        #expect(runs.value == 0)
        let first = TestSubscriber<Int, Never>()
        lazy.subscribe(first)
        let second = TestSubscriber<Int, Never>()
        lazy.subscribe(second)
        #expect(runs.value == 2)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test("C31 calling a promise twice has no effect after the first call")
    func promiseOnce() {
        let future = Future<Int, TestError> { promise in
            promise(.success(1))
            promise(.success(2))
            promise(.failure(TestError()))
        }
        let sub = TestSubscriber<Int, TestError>()
        future.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .finished])
    }

    @Test("Future { try await … } starts at once and delivers the async result")
    func asyncFuture() async throws {
        let executor = DrainExecutor()
        let runs = Counter()
        let future = Future<Int, any Error>(executorPreference: executor) {
            runs.increment()
            return 42
        }
        executor.drain()
        #expect(runs.value == 1, "started without a subscriber")
        #expect(try await future.async() == 42)
        let failing = Future<Int, any Error>(executorPreference: executor) { throw TestError("f") }
        executor.drain()
        await #expect(throws: TestError("f")) { try await failing.async() }
        let plain = Future(executorPreference: executor) {
            await Task.yield(); return "ok"
        }
        executor.drain()
        #expect(try await plain.async() == "ok")
    }

    @Test("C40 a PassthroughSubject stream starts its resource on subscribe and stops it on cancel")
    func subjectLifecycle() {
        let log = BridgeLog()
        let subject = PassthroughSubject<Int, Never>()
        let stream = subject.handleEvents(
            receiveSubscription: { _ in log.append("start") },
            receiveCancel: { log.append("stop") })
        #expect(log.all == [])
        let sub = TestSubscriber<Int, Never>()
        stream.subscribe(sub)
        #expect(log.all == ["start"])
        subject.send(1)
        sub.cancel()
        #expect(log.all == ["start", "stop"])
        subject.send(2)
        #expect(sub.values == [1], "values sent after cancel go nowhere")
    }

    @Test("C37 authorize with retry(3) and replaceError, as the article composes it")
    func authorizeRetry() {
        let attempts = Counter()
        func authorize(failures: Int) -> AnyPublisher<Bool, any Error> {
            Deferred {
                Future { promise in
                    if attempts.increment() <= failures {
                        promise(.failure(TestError("denied")))
                    } else {
                        promise(.success(true))
                    }
                }
            }.eraseToAnyPublisher()
        }
        let ok = TestSubscriber<Bool, Never>()
        authorize(failures: 2).retry(3).replaceError(with: false).subscribe(ok)
        #expect(ok.values == [true])
        #expect(attempts.value == 3)

        let tooMany = TestSubscriber<Bool, Never>()
        authorize(failures: 100).retry(3).replaceError(with: false).subscribe(tooMany)
        #expect(tooMany.values == [false])
        #expect(attempts.value == 3 + 4)
    }

    @Test("authorize, retry, flatMap into a subject stream, replaceError: starts on subscribe, stops on cancel")
    func authorizeThenStream() {
        let log = BridgeLog()
        let attempts = Counter()
        let subject = PassthroughSubject<[Double], any Error>()
        let authorize = Deferred {
            Future<Bool, any Error> { promise in
                attempts.increment() < 3 ? promise(.failure(TestError("denied"))) : promise(.success(true))
            }
        }
        let heartRate = subject.handleEvents(
            receiveSubscription: { _ in log.append("query started") },
            receiveCancel: { log.append("query stopped") })
        let sub = TestSubscriber<[Double], Never>()
        authorize
            .retry(3)
            .flatMap { authorized in
                authorized ? heartRate.eraseToAnyPublisher() : Empty().eraseToAnyPublisher()
            }
            .replaceError(with: [])
            .subscribe(sub)
        #expect(log.all == ["query started"])
        subject.send([61])
        subject.send([62])
        sub.cancel()
        subject.send([63])
        #expect(sub.values == [[61], [62]])
        #expect(log.all == ["query started", "query stopped"])
        #expect(attempts.value == 3)
    }
}
