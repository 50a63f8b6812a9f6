import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: catch and tryCatch")
struct CatchTests {
    @Test("catch replaces a failure with another publisher")
    func replaces() {
        let sub = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).append(Fail(error: TestError()))
            .catch { _ in Just(9) }.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(9), .finished])
    }

    @Test("C38 the replacement is asked for the remaining demand")
    func remainingDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let replacement = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(4))
        upstream.catch { _ in replacement }.subscribe(sub)
        upstream.send(1)
        upstream.send(completion: .failure(TestError()))
        #expect(replacement.last?.requested == [.max(3)])
        sub.request(.max(2))
        #expect(replacement.last?.requested == [.max(3), .max(2)])
    }

    @Test("a normal finish passes through; the handler is not called")
    func finishPasses() {
        var called = false
        let sub = TestSubscriber<Int, Never>()
        Just(1).setFailureType(to: TestError.self).catch { _ -> Just<Int> in
            called = true
            return Just(0)
        }.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .finished])
        #expect(!called)
    }

    @Test("C04 tryCatch: a thrown error becomes the one failure")
    func tryCatchThrows() {
        let sub = TestSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: TestError("a")).tryCatch { _ -> Just<Int> in throw TestError("b") }.subscribe(sub)
        #expect(sub.events.count == 2)
        if case .failure(let error) = sub.completion {
            #expect(error as? TestError == TestError("b"))
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test("tryCatch: the replacement's failure becomes Error")
    func tryCatchReplacement() {
        let sub = TestSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: TestError("a")).tryCatch { _ in Fail<Int, TestError>(error: TestError("c")) }.subscribe(sub)
        if case .failure(let error) = sub.completion {
            #expect(error as? TestError == TestError("c"))
        } else {
            Issue.record("expected a failure")
        }
        let ok = TestSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: TestError()).tryCatch { _ in Just(3) }.subscribe(ok)
        #expect(ok.values == [3])
    }

    @Test("C18 cancel cancels the upstream, and the replacement after a switch")
    func cancel() {
        let upstream = ManualPublisher<Int, TestError>()
        let replacement = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(sub)
        upstream.send(completion: .failure(TestError()))
        sub.cancel()
        #expect(replacement.last?.isCancelled == true)
        replacement.send(1)
        #expect(sub.values.isEmpty)
    }
}
