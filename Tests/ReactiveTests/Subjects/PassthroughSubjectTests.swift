import Testing
import Reactive
import ReactiveTestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Subjects: PassthroughSubject")
struct PassthroughSubjectTests {
    @Test("values reach a subscriber, then the completion")
    func valuesAndCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        subject.subscribe(sub)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("a failure reaches every subscriber once")
    func failure() {
        let subject = PassthroughSubject<Int, TestError>()
        let a = TestSubscriber<Int, TestError>()
        let b = TestSubscriber<Int, TestError>()
        subject.subscribe(a)
        subject.subscribe(b)
        subject.send(completion: .failure(TestError("x")))
        subject.send(completion: .finished)
        #expect(a.events == [.subscription, .failure(TestError("x"))])
        #expect(b.events == [.subscription, .failure(TestError("x"))])
    }

    @Test("C11 values sent with no subscriber are dropped")
    func dropsWithoutSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(1)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.send(2)
        #expect(sub.values == [2])
    }

    @Test("C11 values sent with zero demand are dropped, not buffered")
    func dropsWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(sub)
        subject.send(1)
        sub.request(.max(2))
        subject.send(2)
        subject.send(3)
        subject.send(4)
        #expect(sub.values == [2, 3])
        #expect(sub.violations.isEmpty)
    }

    @Test("C09 demand returned from receive is added")
    func additiveDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { value, _ in value == 1 ? .max(2) : .none }
        subject.subscribe(sub)
        for i in 1...6 { subject.send(i) }
        #expect(sub.values == [1, 2, 3])
        #expect(sub.violations.isEmpty)
    }

    @Test("C07 request(.none) is a no-op")
    func requestNone() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(sub)
        sub.request(.none)
        subject.send(1)
        #expect(sub.values.isEmpty)
    }

    @Test("C01 a subscriber after completion gets its subscription and the completion")
    func lateSubscriber() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError()))
        let sub = TestSubscriber<Int, TestError>()
        subject.subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError())])
    }

    @Test("C05 cancel stops values and no completion follows")
    func cancelStops() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.send(1)
        sub.cancel()
        sub.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1)])
        sub.request(.max(5))
    }

    @Test("C21 cancel from inside receive stops delivery at once")
    func cancelInsideReceive() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, s in
            if value == 2 { s.cancel() }
            return .none
        }
        subject.subscribe(sub)
        for i in 1...5 { subject.send(i) }
        subject.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .value(2)])
    }

    @Test("C22 send from inside receive does not deadlock and is delivered after the current call")
    func reentrantSend() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, _ in
            if value < 3 { subject.send(value + 1) }
            return .none
        }
        let other = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.subscribe(other)
        subject.send(1)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.maxNesting == 1)  // a trampoline: receive was never re-entered
        #expect(sub.violations.isEmpty)
        // The other subscriber gets the re-entrant sends at once, before the outer value.
        #expect(Set(other.values) == [1, 2, 3])
        #expect(other.violations.isEmpty)
    }

    @Test("C22 completion sent from inside receive arrives after the current value")
    func reentrantCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, _ in
            subject.send(completion: .finished)
            subject.send(99)
            return .none
        }
        subject.subscribe(sub)
        subject.send(1)
        #expect(sub.events == [.subscription, .value(1), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C02 sends from inside receive(completion:) are ignored")
    func sendInsideCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onCompletion = { _, _ in
            subject.send(5)
            subject.send(completion: .finished)
        }
        subject.subscribe(sub)
        subject.send(completion: .finished)
        #expect(sub.events == [.subscription, .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C12 each subscriber's demand is its own")
    func independentDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let zero = TestSubscriber<Int, Never>(initialDemand: .none)
        let two = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let all = TestSubscriber<Int, Never>()
        subject.subscribe(zero)
        subject.subscribe(two)
        subject.subscribe(all)
        for i in 1...4 { subject.send(i) }
        #expect(zero.values.isEmpty)
        #expect(two.values == [1, 2])
        #expect(all.values == [1, 2, 3, 4])
        #expect([zero, two, all].allSatisfy { $0.violations.isEmpty })
    }

    @Test("send() on a Void subject")
    func voidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let c = subject.sink { count += 1 }
        subject.send()
        subject.send()
        #expect(count == 2)
        c.cancel()
    }

    @Test("C16 cancelling releases the subscriber and what its closures captured")
    func cancelReleases() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil)
        cancellable?.cancel()
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test("C16 C17 subscribers of every shape (an object, a small struct, a large struct) get every signal and are released")
    func subscriberShapes() {
        // A subject keeps an object by reference, a struct of one word in place in a narrow
        // conduit, one of up to seven words in place in a wide one and a larger one in a box; each
        // must see the same signals and be released the same way.
        struct Tiny: Subscriber {
            let target: TestSubscriber<Int, Never>
            var combineIdentifier: CombineIdentifier { target.combineIdentifier }
            func receive(subscription: any Subscription) { target.receive(subscription: subscription) }
            func receive(_ input: Int) -> Subscribers.Demand { target.receive(input) }
            func receive(completion: Subscribers.Completion<Never>) { target.receive(completion: completion) }
        }
        struct Forward: Subscriber {
            let target: TestSubscriber<Int, Never>
            let combineIdentifier = CombineIdentifier()
            func receive(subscription: any Subscription) { target.receive(subscription: subscription) }
            func receive(_ input: Int) -> Subscribers.Demand { target.receive(input) }
            func receive(completion: Subscribers.Completion<Never>) { target.receive(completion: completion) }
        }
        struct Padded: Subscriber {
            let target: TestSubscriber<Int, Never>
            let combineIdentifier = CombineIdentifier()
            let padding: (Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6)
            func receive(subscription: any Subscription) { target.receive(subscription: subscription) }
            func receive(_ input: Int) -> Subscribers.Demand { target.receive(input) }
            func receive(completion: Subscribers.Completion<Never>) { target.receive(completion: completion) }
        }
        // Exactly the seven words a conduit keeps in place (`map.filter.sink` is this size).
        struct Full: Subscriber {
            let target: TestSubscriber<Int, Never>
            let combineIdentifier = CombineIdentifier()
            let padding: (Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5)
            func receive(subscription: any Subscription) { target.receive(subscription: subscription) }
            func receive(_ input: Int) -> Subscribers.Demand { target.receive(input) }
            func receive(completion: Subscribers.Completion<Never>) { target.receive(completion: completion) }
        }
        #expect(MemoryLayout<Tiny>.size == 8)
        #expect(MemoryLayout<Forward>.size <= 56)
        #expect(MemoryLayout<Full>.size == 56)
        #expect(MemoryLayout<Padded>.size > 56)
        for finishing in [false, true] {
            weak var weakObject: TestSubscriber<Int, Never>?
            weak var weakSmall: TestSubscriber<Int, Never>?
            weak var weakLarge: TestSubscriber<Int, Never>?
            weak var weakFull: TestSubscriber<Int, Never>?
            weak var weakTiny: TestSubscriber<Int, Never>?
            let subject = PassthroughSubject<Int, Never>()
            do {
                let tiny = TestSubscriber<Int, Never>()
                weakTiny = tiny
                let object = TestSubscriber<Int, Never>()
                let small = TestSubscriber<Int, Never>()
                let large = TestSubscriber<Int, Never>()
                let full = TestSubscriber<Int, Never>()
                weakObject = object
                weakSmall = small
                weakLarge = large
                weakFull = full
                subject.subscribe(object)
                subject.subscribe(Forward(target: small))
                subject.subscribe(Padded(target: large))
                subject.subscribe(Full(target: full))
                subject.subscribe(Tiny(target: tiny))
                subject.send(1)
                subject.send(2)
                for sub in [object, small, large, full, tiny] { #expect(sub.values == [1, 2]) }
                if finishing {
                    subject.send(completion: .finished)
                    for sub in [object, small, large, full, tiny] { #expect(sub.completion == .finished) }
                } else {
                    for sub in [object, small, large, full, tiny] { sub.cancel() }
                    subject.send(3)
                    for sub in [object, small, large, full, tiny] { #expect(sub.values == [1, 2]) }
                }
            }
            // Each TestSubscriber keeps its subscription: only the subject letting go breaks the cycle.
            #expect(weakObject == nil)
            #expect(weakSmall == nil)
            #expect(weakLarge == nil)
            #expect(weakFull == nil)
            #expect(weakTiny == nil)
        }
    }

    #if canImport(Glibc)
    @Test("a subscription is one allocation sized to its subscriber: within glibc's fast bins for an object")
    func subscriptionSizes() throws {
        // glibc's malloc keeps freed chunks of up to 128 bytes (120 usable) in fast bins; a larger
        // one is coalesced with its free neighbours at once, which made subscribing a `Sink` 5%
        // and a cancel up to 6% slower when every subscription had room for seven words.
        final class Captured { var subscription: (any Subscription)? }
        final class ObjectSubscriber: Subscriber {
            let captured: Captured
            init(_ captured: Captured) { self.captured = captured }
            func receive(subscription: any Subscription) { captured.subscription = subscription }
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        // Seven words, the size of `map.filter.sink`'s subscriber, which stays in place.
        struct WideSubscriber: Subscriber {
            let captured: Captured
            let combineIdentifier = CombineIdentifier()
            let padding: (Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5)
            func receive(subscription: any Subscription) { captured.subscription = subscription }
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        // `malloc_usable_size` is declared in <malloc.h>, which the Glibc module leaves out.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try #require(dlsym(nil, "malloc_usable_size"), "glibc's malloc_usable_size")
        let mallocUsableSize = unsafeBitCast(symbol, to: UsableSize.self)
        func usableSize(_ subscription: (any Subscription)?) -> Int {
            guard let subscription else { return 0 }
            let object = subscription as AnyObject
            return withExtendedLifetime(object) { mallocUsableSize(Unmanaged.passUnretained(object).toOpaque()) }
        }
        #expect(MemoryLayout<WideSubscriber>.size == 56)
        let subject = PassthroughSubject<Int, Never>()
        let forObject = Captured()
        let forWide = Captured()
        subject.subscribe(ObjectSubscriber(forObject))
        subject.subscribe(WideSubscriber(captured: forWide))
        let objectSize = usableSize(forObject.subscription)
        let wideSize = usableSize(forWide.subscription)
        #expect(objectSize > 0 && objectSize <= 120)
        // In place: the conduit's own fields (88 bytes) and the seven words (a box would leave it
        // 104). malloc may hand out a chunk up to 16 bytes larger than asked, hence bounds.
        #expect(wideSize >= 88 + 56)
        forObject.subscription?.cancel()
        forWide.subscription?.cancel()
    }
    #endif

    @Test("C18 dropping the AnyCancellable cancels and releases")
    func droppingCancels() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var received: [Int] = []
        do {
            let token = Token()
            weakToken = token
            let c = subject.sink { value in
                withExtendedLifetime(token) {}
                received.append(value)
            }
            subject.send(1)
            _ = c
        }
        subject.send(2)
        #expect(received == [1])
        #expect(weakToken == nil)
    }

    @Test("C17 completion releases the subscriber without a cancel")
    func completionReleases() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in withExtendedLifetime(token) {} }
        }
        subject.send(completion: .finished)
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test("subscribe(subject) forwards an upstream publisher's values and completion")
    func subscribeSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        let link = [1, 2, 3].publisher.subscribe(subject)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        link.cancel()
    }

    @Test("subscribe(subject) asks upstream for values only once a subscriber has demand")
    func subscribeSubjectDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let link = upstream.subscribe(subject)
        #expect(upstream.last?.requested == [])
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(7)
        #expect(sub.values == [7])
        link.cancel()
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("C18 dropping the link's AnyCancellable cancels upstream")
    func linkDropCancels() {
        let upstream = ManualPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        do {
            let link = upstream.subscribe(subject)
            _ = link
        }
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("C06 a second subscription to the subject link is cancelled")
    func secondUpstreamSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let upstream = ManualPublisher<Int, Never>()
        let link = upstream.subscribe(subject)
        // A completed subject refuses new upstreams.
        #expect(upstream.last?.isCancelled == true)
        link.cancel()
    }
}
