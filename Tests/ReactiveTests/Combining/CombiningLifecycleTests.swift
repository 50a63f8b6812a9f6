import Testing
import Reactive
import ReactiveTestSupport

/// C16/C17/C19 for every combining operator: cancel and termination drop the downstream even while
/// the sources (which keep their subscribers) stay alive.
@Suite("Combining: lifecycle")
struct CombiningLifecycleTests {
    typealias Source = ManualPublisher<Int, TestError>

    /// Builds an operator over two manual sources.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (Source, Source) -> AnyPublisher<Int, TestError>
    }

    static let cases: [Case] = [
        Case(description: "flatMap") { a, b in a.flatMap { _ in b }.eraseToAnyPublisher() },
        Case(description: "merge") { a, b in a.merge(with: b).eraseToAnyPublisher() },
        Case(description: "zip") { a, b in a.zip(b) { $0 + $1 }.eraseToAnyPublisher() },
        Case(description: "combineLatest") { a, b in a.combineLatest(b) { $0 + $1 }.eraseToAnyPublisher() },
        Case(description: "append") { a, b in a.append(b).eraseToAnyPublisher() },
        Case(description: "catch") { a, b in a.catch { _ in b }.eraseToAnyPublisher() },
        Case(description: "retry") { a, _ in a.retry(2).eraseToAnyPublisher() },
        Case(description: "prefix(untilOutputFrom:)") { a, b in a.prefix(untilOutputFrom: b).eraseToAnyPublisher() },
        Case(description: "drop(untilOutputFrom:)") { a, b in a.drop(untilOutputFrom: b).eraseToAnyPublisher() },
        Case(description: "switchToLatest") { a, b in a.map { _ in b }.switchToLatest().eraseToAnyPublisher() },
    ]

    @Test("C16 cancel releases the downstream while the sources live on", arguments: cases)
    func cancelReleases(_ c: Case) {
        let a = Source()
        let b = Source()
        weak var weakSub: TestSubscriber<Int, TestError>?
        do {
            let sub = TestSubscriber<Int, TestError>()
            weakSub = sub
            c.make(a, b).subscribe(sub)
            a.send(1)
            sub.cancel()
        }
        #expect(weakSub == nil)
        #expect(a.subscriptions.allSatisfy { $0.isCancelled })
    }

    @Test("C17 termination releases the downstream without any cancel", arguments: cases)
    func terminationReleases(_ c: Case) {
        let a = Source()
        let b = Source()
        weak var weakSub: TestSubscriber<Int, TestError>?
        do {
            let sub = TestSubscriber<Int, TestError>()
            weakSub = sub
            c.make(a, b).subscribe(sub)
            // Fail everything that may be subscribed until the output terminates.
            for _ in 0..<4 where sub.completion == nil {
                a.send(completion: .failure(TestError()))
                b.send(completion: .failure(TestError()))
            }
            #expect(sub.completion != nil)
        }
        #expect(weakSub == nil)
    }

    @Test("C06 a second subscription to an input is cancelled; the first is kept")
    func secondSubscription() {
        typealias Captured = any Subscriber<Int, TestError>
        func check(_ name: String, _ build: (AnyPublisher<Int, TestError>) -> AnyPublisher<Int, TestError>) {
            var captured: Captured?
            let input = AnyPublisher<Int, TestError>(CapturingPublisher<Int, TestError> { captured = $0 })
            let sub = TestSubscriber<Int, TestError>()
            build(input).subscribe(sub)
            let first = ProbeSubscription()
            let second = ProbeSubscription()
            captured?.receive(subscription: first)
            captured?.receive(subscription: second)
            #expect(captured != nil, "\(name)")
            #expect(second.isCancelled, "\(name)")
            #expect(!first.isCancelled, "\(name)")
        }
        check("merge") { $0.merge(with: Empty(completeImmediately: false)).eraseToAnyPublisher() }
        check("zip") { $0.zip(Empty<Int, TestError>(completeImmediately: false)) { $0 + $1 }.eraseToAnyPublisher() }
        check("append") { $0.append(1).eraseToAnyPublisher() }
        check("catch") { $0.catch { _ in Just(1).setFailureType(to: TestError.self) }.eraseToAnyPublisher() }
        check("retry") { $0.retry(1).eraseToAnyPublisher() }
        check("prefix(untilOutputFrom:)") { $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).eraseToAnyPublisher() }
        check("flatMap inner") { input in Just(0).setFailureType(to: TestError.self).flatMap { _ in input }.eraseToAnyPublisher() }
    }
}
