import Reactive
import ReactiveTestSupport
import Testing

/// Erases `publisher` behind a call the optimiser does not look into, as an API returning
/// `AnyPublisher` does: the subscriber reaches the wrapped publisher through the erased path.
@inline(never)
private func erased<P: Publisher>(_ publisher: P) -> AnyPublisher<P.Output, P.Failure> {
    publisher.eraseToAnyPublisher()
}

/// Records what the subscriber it is given says about itself, then finishes it.
private struct IdentityProbe: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let seen: Box

    final class Box: @unchecked Sendable {
        // @unchecked: written once by the subscribing test thread, read after.
        var identifier: CombineIdentifier?
        var description = ""
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        seen.identifier = subscriber.combineIdentifier
        seen.description = String(describing: subscriber)
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
    }
}

private final class Witness: Sendable {}

@Suite("Core: AnyPublisher")
struct AnyPublisherTests {
    @Test("stateful operators downstream of AnyPublisher publish what they do unerased")
    func statefulOperatorsAfterErasure() {
        let source = [1, 1, 2, 3, 3, 3, 4]
        func run<P: Publisher>(_ publisher: P) -> [String] where P.Failure == Never {
            var out: [String] = []
            _ = publisher.sink { out.append("\($0)") }
            return out
        }
        #expect(run(erased(source.publisher).count()) == ["7"])
        #expect(run(erased(source.publisher).scan(0, +)) == ["1", "2", "4", "7", "10", "13", "17"])
        #expect(run(erased(source.publisher).reduce(0, +)) == ["17"])
        #expect(run(erased(source.publisher).removeDuplicates()) == ["1", "2", "3", "4"])
        #expect(run(erased(source.publisher).collect()) == ["[1, 1, 2, 3, 3, 3, 4]"])
        #expect(run(erased(source.publisher).flatMap { Just($0 * 10) }) == source.map { "\($0 * 10)" })
        var tried: [Int] = []
        var completion: Subscribers.Completion<any Error>?
        _ = erased(source.publisher).tryMap { $0 * 3 }.tryFilter { $0 % 2 == 0 }
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { tried.append($0) })
        #expect(tried == [6, 12])
        #expect(completion?.isFinished == true)
    }

    @Test("C08 C09 demand passes through the erasure unchanged, and so do the completion and values")
    func demandThroughErasure() {
        let publisher = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        erased(publisher).subscribe(sub)
        #expect(publisher.last?.requested == [.max(2)])
        #expect(publisher.send(1) == .none)
        sub.request(.max(3))
        #expect(publisher.last?.requested == [.max(2), .max(3)])
        publisher.send(completion: .failure(TestError("boom")))
        #expect(sub.events == [.subscription, .value(1), .failure(TestError("boom"))])
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 a stateful operator behind an erasure forwards demand one value at a time")
    func stepEngineDemandThroughErasure() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1))
            return .none
        }
        erased((1...1000).publisher).scan(0, +).subscribe(sub)
        #expect(sub.values.count == 1000)
        #expect(sub.values.last == 500_500)
        #expect(sub.maxNesting <= 1)
        #expect(sub.violations.isEmpty)
    }

    @Test("C05 C21 cancel through the erasure reaches upstream once; nothing arrives after it")
    func cancelThroughErasure() {
        let publisher = ManualPublisher<Int, Never>()
        var seen: [Int] = []
        let c = erased(publisher).count().sink { seen.append($0) }
        publisher.send(1)
        c.cancel()
        c.cancel()
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(publisher.last?.cancelCount == 1)
        #expect(seen.isEmpty)
    }

    @Test("C16 C17 the subscriber and its closures are released on cancel and on completion")
    func releaseThroughErasure() {
        weak var afterCancel: Witness?
        weak var afterCompletion: Witness?
        let subject = PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        do {
            let a = Witness()
            let b = Witness()
            afterCancel = a
            afterCompletion = b
            cancellables.append(erased(subject).scan(0, +).sink { _ in withExtendedLifetime(a) {} })
            cancellables.append(erased(subject).count().sink(receiveCompletion: { _ in withExtendedLifetime(b) {} }, receiveValue: { _ in }))
        }
        subject.send(1)
        #expect(afterCancel != nil && afterCompletion != nil)
        cancellables[0].cancel()
        #expect(afterCancel == nil)
        subject.send(completion: .finished)
        #expect(afterCompletion == nil)
        _ = cancellables
    }

    @Test("C12 each subscriber of an erased subject gets its own demand")
    func erasedSubjectFanOut() {
        let subject = PassthroughSubject<Int, Never>()
        let subs = (1...10).map { TestSubscriber<Int, Never>(initialDemand: .max($0)) }
        for sub in subs { erased(subject).map { $0 + 1 }.subscribe(sub) }
        for value in 0..<20 { subject.send(value) }
        for (index, sub) in subs.enumerated() {
            #expect(sub.values == Array(1...(index + 1)))
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("the wrapped publisher sees the subscriber's own identity and description")
    func subscriberIdentity() {
        let probe = IdentityProbe(seen: IdentityProbe.Box())
        let sub = TestSubscriber<Int, Never>()
        erased(probe).subscribe(sub)
        #expect(probe.seen.identifier == sub.combineIdentifier)
        #expect(probe.seen.description == String(describing: sub))
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("erasing twice keeps one box; an erased chain inside another erasure still delivers")
    func nestedErasure() {
        let once = erased((1...3).publisher)
        let twice = AnyPublisher(once)
        var out: [Int] = []
        _ = erased(twice.map { $0 * 2 }).count().sink { out.append($0) }
        _ = erased(erased(twice).scan(0, +)).sink { out.append($0) }
        #expect(out == [3, 1, 3, 6])
    }
}
