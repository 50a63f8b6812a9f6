import Testing
import Reactive
import ReactiveTestSupport

@Suite("Operators: multicast, makeConnectable, autoconnect, share")
struct MulticastTests {
    @Test("multicast: nothing flows until connect; then every subscriber gets the values")
    func multicastConnect() {
        let upstream = ManualPublisher<Int, Never>()
        let m = upstream.multicast { PassthroughSubject<Int, Never>() }
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        m.subscribe(a)
        m.subscribe(b)
        #expect(upstream.subscriberCount == 0)
        let connection = m.connect()
        #expect(upstream.subscriberCount == 1)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(a.events == [.subscription, .value(1), .value(2), .finished])
        #expect(b.events == [.subscription, .value(1), .value(2), .finished])
        connection.cancel()
    }

    @Test("multicast creates its subject once")
    func subjectOnce() {
        var made = 0
        let m = Just(1).multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        m.subscribe(a)
        m.subscribe(b)
        let c = m.connect()
        #expect(made == 1)
        #expect(a.values == [1])
        #expect(b.values == [1])
        c.cancel()
    }

    @Test("multicast(subject:) uses the given subject")
    func givenSubject() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let m = [1, 2].publisher.multicast(subject: subject)
        let a = TestSubscriber<Int, Never>()
        m.subscribe(a)
        let c = m.connect()
        #expect(a.events == [.subscription, .value(0), .value(1), .value(2), .finished])
        #expect(subject.value == 2)
        c.cancel()
    }

    @Test("C12 a multicast subscriber at zero demand neither blocks nor over-feeds the others")
    func independentDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let m = upstream.multicast { PassthroughSubject<Int, Never>() }
        let zero = TestSubscriber<Int, Never>(initialDemand: .none)
        let one = TestSubscriber<Int, Never>(initialDemand: .max(1))
        let all = TestSubscriber<Int, Never>()
        m.subscribe(zero)
        m.subscribe(one)
        m.subscribe(all)
        let c = m.connect()
        for i in 1...5 { upstream.send(i) }
        #expect(zero.values.isEmpty)
        #expect(one.values == [1])
        #expect(all.values == [1, 2, 3, 4, 5])
        #expect([zero, one, all].allSatisfy { $0.violations.isEmpty })
        c.cancel()
    }

    @Test("C18 cancelling the connection cancels the upstream")
    func cancelConnection() {
        let upstream = ManualPublisher<Int, Never>()
        let m = upstream.multicast { PassthroughSubject<Int, Never>() }
        let a = TestSubscriber<Int, Never>()
        m.subscribe(a)
        let c = m.connect()
        c.cancel()
        #expect(upstream.last?.isCancelled == true)
        upstream.send(1)
        #expect(a.values.isEmpty)
    }

    @Test("makeConnectable waits for connect")
    func makeConnectable() {
        let c = [1, 2, 3].publisher.makeConnectable()
        let a = TestSubscriber<Int, Never>()
        c.subscribe(a)
        #expect(a.events == [.subscription])
        let connection = c.connect()
        #expect(a.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        connection.cancel()
    }

    @Test("autoconnect connects on the first subscriber and disconnects after the last leaves")
    func autoconnect() {
        let upstream = ManualPublisher<Int, Never>()
        let auto = upstream.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
        #expect(upstream.subscriberCount == 0)
        let a = TestSubscriber<Int, Never>()
        auto.subscribe(a)
        #expect(upstream.subscriberCount == 1)
        let b = TestSubscriber<Int, Never>()
        auto.subscribe(b)
        #expect(upstream.subscriberCount == 1)
        upstream.send(1)
        a.cancel()
        #expect(upstream.last?.isCancelled == false)
        upstream.send(2)
        b.cancel()
        #expect(upstream.last?.isCancelled == true)
        #expect(a.values == [1])
        #expect(b.values == [1, 2])
        // A new subscriber connects again.
        let c = TestSubscriber<Int, Never>()
        auto.subscribe(c)
        #expect(upstream.subscriberCount == 2)
        c.cancel()
    }

    @Test("share: one upstream subscription for many subscribers")
    func share() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        upstream.send(1)
        shared.subscribe(b)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(upstream.subscriberCount == 1)
        #expect(a.events == [.subscription, .value(1), .value(2), .finished])
        #expect(b.events == [.subscription, .value(2), .finished])
    }

    @Test("share is a class: copies share one subscription, equality is identity")
    func shareIdentity() {
        var subscribes = 0
        let source = Deferred { () -> Just<Int> in
            subscribes += 1
            return Just(1)
        }
        let shared = source.share()
        let copy = shared
        #expect(shared == copy)
        #expect(shared != source.share())
        let a = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        #expect(subscribes == 1)
        #expect(a.events == [.subscription, .value(1), .finished])
        // A late subscriber to a completed share gets the completion only (as Combine).
        let late = TestSubscriber<Int, Never>()
        copy.subscribe(late)
        #expect(late.events == [.subscription, .finished])
    }

    @Test("C18 share: cancelling every subscriber cancels the upstream")
    func shareCancels() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        var bag: [AnyCancellable] = []
        shared.sink { _ in }.store(in: &bag)
        shared.sink { _ in }.store(in: &bag)
        #expect(upstream.last?.isCancelled == false)
        bag.removeAll()
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("C16 share releases a cancelled subscriber")
    func shareReleases() {
        final class Token {}
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = shared.sink { _ in withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil)
        cancellable = nil
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test("share: a failure reaches every subscriber")
    func shareFailure() {
        let upstream = ManualPublisher<Int, TestError>()
        let shared = upstream.share()
        let a = TestSubscriber<Int, TestError>()
        let b = TestSubscriber<Int, TestError>()
        shared.subscribe(a)
        shared.subscribe(b)
        upstream.send(completion: .failure(TestError()))
        #expect(a.events == [.subscription, .failure(TestError())])
        #expect(b.events == [.subscription, .failure(TestError())])
    }

    @Test("C19 multicast lifecycle: a cancelled connection frees the subject once the multicast is gone")
    func multicastCancelledFrees() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: (any Cancellable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let multicast = upstream.multicast(subject: subject)
            connection = multicast.connect()
        }
        // As in Combine, the connection does not keep the subject (MulticastSubjectLifetimeTests).
        connection?.cancel()
        #expect(weakSubject == nil)
        _ = connection
    }

    @Test("C19 multicast lifecycle: a completed connection frees the subject once the multicast is gone")
    func multicastCompletedFrees() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: (any Cancellable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            connection = upstream.multicast(subject: subject).connect()
        }
        upstream.send(completion: .finished)
        #expect(weakSubject == nil)
        _ = connection
    }

    @Test("C16 a connected multicast that is cancelled releases a subject made by its factory")
    func multicastFactoryFrees() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: (any Cancellable)?
        var multicast: Publishers.Multicast<ManualPublisher<Int, Never>, PassthroughSubject<Int, Never>>?
        multicast = upstream.multicast {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            return subject
        }
        let sub = TestSubscriber<Int, Never>()
        multicast?.subscribe(sub)
        connection = multicast?.connect()
        connection?.cancel()
        sub.cancel()
        multicast = nil
        #expect(weakSubject == nil)
        _ = connection
    }
}
