import Testing
import Reactive
import ReactiveTestSupport

/// Subjects with many subscribers: the order a send delivers in, and what a subscriber that
/// subscribes or cancels (many at once) from inside a send sees. Cancelling many subscribers
/// squeezes the subject's table of subscribers, moving the rest while a send walks it.
@Suite("Subjects: many subscribers")
struct SubjectManySubscribersTests {
    /// Records which subscriber received which value, in the order of delivery.
    final class Log {
        var entries: [(subscriber: Int, value: Int)] = []
    }

    /// A sink that records into `log` under `id`.
    func recording(_ subject: PassthroughSubject<Int, Never>, _ id: Int, into log: Log) -> AnyCancellable {
        subject.sink { log.entries.append((id, $0)) }
    }

    @Test("a value reaches subscribers in the order they subscribed, also after many cancels")
    func subscriptionOrderAfterCancels() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        var live: [Int: AnyCancellable] = [:]
        for id in 0..<300 { live[id] = recording(subject, id, into: log) }
        // Cancel two of every three (enough to squeeze the table), then add more at the end.
        for id in 0..<300 where id % 3 != 0 { live.removeValue(forKey: id)?.cancel() }
        for id in 300..<350 { live[id] = recording(subject, id, into: log) }
        subject.send(7)
        let expected = live.keys.sorted()
        #expect(log.entries.map(\.subscriber) == expected)
        #expect(log.entries.allSatisfy { $0.value == 7 })
        // Cancelling nearly all of them keeps the order of the rest too.
        for id in expected.dropLast(3) { live.removeValue(forKey: id)?.cancel() }
        log.entries = []
        subject.send(8)
        #expect(log.entries.map(\.subscriber) == Array(expected.suffix(3)))
        // And the last one left still gets every value.
        for id in expected.suffix(3).dropLast() { live.removeValue(forKey: id)?.cancel() }
        log.entries = []
        subject.send(9)
        subject.send(10)
        #expect(log.entries.map(\.subscriber) == [expected.last!, expected.last!])
        #expect(log.entries.map(\.value) == [9, 10])
    }

    @Test("C23 cancelling every subscriber from inside a send empties the subject; new subscribers then get the next value only, in order")
    func cancelAllInsideSendThenSubscribe() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        var all: [AnyCancellable] = []
        var late: [AnyCancellable] = []
        all.append(
            subject.sink { value in
                log.entries.append((0, value))
                guard value == 1 else { return }
                // Every subscriber, this one too (the subject's table empties mid-send) ...
                for c in all { c.cancel() }
                // ... then new ones, which this send must not reach.
                for id in 1000..<1010 { late.append(subject.sink { log.entries.append((id, $0)) }) }
            })
        for id in 1..<50 { all.append(recording(subject, id, into: log)) }
        subject.send(1)
        #expect(log.entries.map(\.subscriber) == [0])
        log.entries = []
        subject.send(2)
        #expect(log.entries.map(\.subscriber) == Array(1000..<1010))
        #expect(log.entries.allSatisfy { $0.value == 2 })
        withExtendedLifetime((all, late)) {}
    }

    @Test(
        "C23 cancelling most subscribers and subscribing new ones from inside a send: the rest get the value once, in order; the new ones the next value only")
    func cancelManyAndSubscribeInsideSend() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        var others: [AnyCancellable] = []
        var late: [AnyCancellable] = []
        let first = subject.sink { value in
            log.entries.append((0, value))
            guard value == 1 else { return }
            // 60 of the 99 others (the table is squeezed while this send is in progress) ...
            for index in 0..<60 { others[index].cancel() }
            // ... and new subscribers, which this send must not reach.
            for id in 1000..<1020 { late.append(subject.sink { log.entries.append((id, $0)) }) }
        }
        for id in 1..<100 { others.append(recording(subject, id, into: log)) }
        subject.send(1)
        #expect(log.entries.map(\.subscriber) == [0] + Array(61..<100))
        #expect(log.entries.allSatisfy { $0.value == 1 })
        log.entries = []
        subject.send(2)
        #expect(log.entries.map(\.subscriber) == [0] + Array(61..<100) + Array(1000..<1020))
        withExtendedLifetime((first, others, late)) {}
    }

    @Test("C23 a subscriber that cancels itself and most others from inside a send, while later ones also cancel themselves")
    func cancelsDuringSendFromEverySide() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        var subscribers: [TestSubscriber<Int, Never>] = []
        for id in 0..<200 {
            let sub = TestSubscriber<Int, Never>()
            sub.onValue = { value, me in
                log.entries.append((id, value))
                if id % 2 == 1 { me.cancel() }  // every odd one leaves at its first value
                if id == 10 { for other in subscribers[20..<150] { other.cancel() } }
                return .none
            }
            subscribers.append(sub)
            subject.subscribe(sub)
        }
        subject.send(1)
        let firstRound = Array(0...10) + Array(11..<20) + Array(150..<200)
        #expect(log.entries.map(\.subscriber) == firstRound)
        log.entries = []
        subject.send(2)
        #expect(log.entries.map(\.subscriber) == firstRound.filter { $0 % 2 == 0 })
        #expect(subscribers.allSatisfy { $0.violations.isEmpty })
    }

    @Test("a completion from inside a send reaches every subscriber once, and no value follows it")
    func completionInsideSendWithMany() {
        let subject = PassthroughSubject<Int, Never>()
        var subscribers: [TestSubscriber<Int, Never>] = []
        for id in 0..<100 {
            let sub = TestSubscriber<Int, Never>()
            if id == 30 {
                sub.onValue = { _, _ in
                    subject.send(completion: .finished)
                    return .none
                }
            }
            subscribers.append(sub)
            subject.subscribe(sub)
        }
        subject.send(1)
        subject.send(2)
        for (id, sub) in subscribers.enumerated() {
            #expect(sub.values == (id <= 30 ? [1] : []), "subscriber \(id)")
            #expect(sub.completion == .finished)
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("C08 C12 each of many subscribers keeps its own demand")
    func demandPerSubscriberWithMany() {
        let subject = PassthroughSubject<Int, Never>()
        let subscribers = (0..<150).map { TestSubscriber<Int, Never>(initialDemand: .max($0 % 4)) }
        for sub in subscribers { subject.subscribe(sub) }
        for (index, sub) in subscribers.enumerated() where index % 5 == 0 { sub.cancel() }
        for value in 0..<5 { subject.send(value) }
        for (index, sub) in subscribers.enumerated() {
            #expect(sub.values == (index % 5 == 0 ? [] : Array(0..<(index % 4))), "subscriber \(index)")
        }
    }

    @Test("C11 a long run of subscribers without demand does not stop a send short of the ones after it")
    func manyWithoutDemandBeforeOne() {
        let subject = PassthroughSubject<Int, Never>()
        let waiting = (0..<100).map { _ in TestSubscriber<Int, Never>(initialDemand: .none) }
        for sub in waiting { subject.subscribe(sub) }
        let last = TestSubscriber<Int, Never>()
        subject.subscribe(last)
        subject.send(1)
        waiting[57].request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(last.values == [1, 2, 3])
        #expect(waiting[57].values == [2])
        #expect(waiting.enumerated().allSatisfy { $0.offset == 57 || $0.element.values.isEmpty })
    }

    @Test("C16 C17 cancelled and completed subscribers of a large subject are released, the others kept")
    func releaseWithMany() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        var weakTokens: [() -> Token?] = []
        var cancellables: [AnyCancellable] = []
        for _ in 0..<500 {
            let token = Token()
            weakTokens.append { [weak token] in token }
            cancellables.append(subject.sink { _ in withExtendedLifetime(token) {} })
        }
        subject.send(1)
        for index in stride(from: 0, to: 500, by: 2) { cancellables[index].cancel() }
        for (index, token) in weakTokens.enumerated() {
            #expect((token() == nil) == (index % 2 == 0), "token \(index)")
        }
        subject.send(completion: .finished)
        #expect(weakTokens.allSatisfy { $0() == nil })
        withExtendedLifetime(cancellables) {}
    }
}
