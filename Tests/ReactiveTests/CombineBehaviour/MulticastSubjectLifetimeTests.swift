import Reactive
import ReactiveTestSupport
import Testing

// Issue #20 item 8. Combine facts: `publisher.subscribe(subject)` (what `connect()` of a
// `multicast(subject:)` does) wraps the subject in a subscriber that holds it *weakly*, so a
// connected multicast does not keep its subject alive: when the last reference to the
// `Multicast` (and the subject) goes, the subject is freed although the connection was never
// cancelled, and the subject's deinit cancels its upstream. A subscription to a subject holds the
// subject strongly, so a subject with a live subscriber stays. Sources: the OpenCombine project's
// multicast lifecycle test and its `SubjectSubscriber` (a `weak` downstream subject), checked
// against Apple's Combine; Apple's documentation of `multicast(subject:)`.
@Suite("Combine behaviour: a connected multicast does not keep its subject")
struct MulticastSubjectLifetimeTests {
    @Test("the subject goes with the last reference to the multicast, without a cancel")
    func connectedMulticastFreesSubject() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: (any Cancellable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let multicast = upstream.multicast(subject: subject)
            connection = multicast.connect()
        }
        #expect(weakSubject == nil, "freed although the connection is alive")
        #expect(upstream.last?.isCancelled == true, "the subject's deinit cancelled its upstream")
        connection?.cancel()
        _ = connection
    }

    @Test("subscribe(subject) alone does not keep the subject")
    func subscribeSubjectIsWeak() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: CurrentValueSubject<Int, Never>?
        var link: AnyCancellable?
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            weakSubject = subject
            link = upstream.subscribe(subject)
        }
        #expect(weakSubject == nil)
        upstream.send(1)  // reaches no subject, and does not crash
        link?.cancel()
    }

    @Test("a subject with a live subscriber is kept by its subscription, and keeps receiving")
    func subscriberKeepsSubject() {
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let sink = TestSubscriber<Int, Never>()
        var connection: (any Cancellable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let multicast = upstream.multicast(subject: subject)
            multicast.subscribe(sink)
            connection = multicast.connect()
        }
        #expect(weakSubject != nil, "its subscription holds it")
        upstream.send(1)
        #expect(sink.values == [1])
        sink.cancel()
        #expect(weakSubject == nil, "the cancel let it go")
        _ = connection
    }

    @Test("share() keeps flowing after the shared publisher itself is dropped")
    func shareFlowsWithoutItsOwner() {
        let upstream = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = upstream.share().sink { seen.append($0) }
        upstream.send(1)
        upstream.send(2)
        #expect(seen == [1, 2])
        cancellable.cancel()
        upstream.send(3)
        #expect(seen == [1, 2])
    }
}
