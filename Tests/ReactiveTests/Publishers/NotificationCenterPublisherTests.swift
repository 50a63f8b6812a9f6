import Foundation
import Reactive
import ReactiveTestSupport
import Synchronization
import Testing

@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    private let name = Notification.Name("ReactiveTests.Ping")

    @Test("posted notifications arrive in order, with name and object; it never completes")
    func values() {
        let center = NotificationCenter()
        let sender = NSObject()
        let sub = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(sub)
        center.post(name: name, object: sender, userInfo: ["n": 1])
        center.post(name: name, object: nil, userInfo: ["n": 2])
        center.post(name: Notification.Name("Other"), object: nil)
        #expect(sub.values.map { $0.userInfo?["n"] as? Int } == [1, 2])
        #expect(sub.values.first?.object as? NSObject === sender)
        #expect(sub.completion == nil)
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }

    @Test("object: filters by sender")
    func objectFilter() {
        let center = NotificationCenter()
        let mine = NSObject(), theirs = NSObject()
        let sub = TestSubscriber<Notification, Never>()
        center.publisher(for: name, object: mine).subscribe(sub)
        center.post(name: name, object: theirs)
        center.post(name: name, object: mine)
        #expect(sub.values.count == 1)
        #expect(sub.values.first?.object as? NSObject === mine)
        sub.cancel()
    }

    @Test("C08 C11 no demand: notifications are dropped, not queued")
    func demand() {
        let center = NotificationCenter()
        let sub = TestSubscriber<Notification, Never>(initialDemand: .none)
        NotificationCenter.Publisher(center: center, name: name).subscribe(sub)
        center.post(name: name, object: nil, userInfo: ["n": 0])
        #expect(sub.values.isEmpty)
        sub.request(.max(2))
        for n in 1...4 { center.post(name: name, object: nil, userInfo: ["n": n]) }
        #expect(sub.values.map { $0.userInfo?["n"] as? Int } == [1, 2])
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }

    @Test("C09 demand returned from receive(_:) adds up")
    func additiveDemand() {
        let center = NotificationCenter()
        let sub = TestSubscriber<Notification, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        center.publisher(for: name).subscribe(sub)
        for _ in 1...5 { center.post(name: name, object: nil) }
        #expect(sub.values.count == 5)
        sub.cancel()
    }

    @Test("C16 cancel removes the observer and releases the subscriber")
    func cancel() {
        let center = NotificationCenter()
        weak var weakSub: TestSubscriber<Notification, Never>?
        do {
            let sub = TestSubscriber<Notification, Never>()
            weakSub = sub
            center.publisher(for: name).subscribe(sub)
            center.post(name: name, object: nil)
            sub.cancel()
            sub.cancel()
            center.post(name: name, object: nil)
            #expect(sub.values.count == 1)
        }
        #expect(weakSub == nil)
    }

    @Test("C21 C22 cancel and post from inside receive(_:) neither deadlock nor nest")
    func reentrancy() {
        let center = NotificationCenter()
        let name = self.name
        let sub = TestSubscriber<Notification, Never>()
        sub.onValue = { notification, me in
            let n = notification.userInfo?["n"] as? Int ?? 0
            if n < 3 { center.post(name: name, object: nil, userInfo: ["n": n + 1]) } else { me.cancel() }
            return .none
        }
        center.publisher(for: name).subscribe(sub)
        center.post(name: name, object: nil, userInfo: ["n": 1])
        center.post(name: name, object: nil, userInfo: ["n": 9])
        #expect(sub.values.map { $0.userInfo?["n"] as? Int } == [1, 2, 3])
        #expect(sub.maxNesting == 1)
        #expect(sub.violations.isEmpty)
    }

    @Test("C25 concurrent posts are serialised and all delivered with unlimited demand", .hangLimit)
    func concurrentPosts() {
        let center = NotificationCenter()
        let name = self.name
        let sub = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(sub)
        let finished = runConcurrently(threads: 4) { _ in
            for _ in 0..<250 { center.post(name: name, object: nil) }
        }
        #expect(finished)
        #expect(sub.values.count == 1000)
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }
}

@Suite("NotificationCenter.Publisher lifetime")
struct NotificationCenterPublisherLifetimeTests {
    @Test("a subscriber that does not keep its subscription still gets notifications until cancel")
    func unretainedSubscription() {
        let center = NotificationCenter()
        let name = Notification.Name("ReactiveTests.Unretained")
        let received = Mutex<Int>(0)
        center.publisher(for: name).subscribe(
            AnySubscriber<Notification, Never>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: { _ in
                    received.withLock { $0 += 1 }; return .none
                }))
        center.post(name: name, object: nil)
        center.post(name: name, object: nil)
        #expect(received.withLock { $0 } == 2)
    }
}
