import Testing
import Reactive
import ReactiveTestSupport

private final class Witness: Sendable {}

/// Runs an action when released (a user object whose deinit calls back into the pipeline).
private final class OnDeinit {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}

@Suite("Core: AnyCancellable, Sink, type erasure")
struct CancellableTests {
    @Test("C14 AnyCancellable runs its action once, however often it is cancelled")
    func cancelOnce() {
        let count = Counter()
        let c = AnyCancellable { count.increment() }
        c.cancel()
        c.cancel()
        #expect(count.value == 1)
    }

    @Test("C18 dropping an AnyCancellable cancels")
    func deinitCancels() {
        let publisher = ManualPublisher<Int, Never>()
        do {
            _ = publisher.sink { _ in }
        }
        #expect(publisher.last?.isCancelled == true)
    }

    @Test("store(in:) keeps cancellables in a set and in an array")
    func store() {
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        let publisher = ManualPublisher<Int, Never>()
        publisher.sink { _ in }.store(in: &set)
        publisher.sink { _ in }.store(in: &array)
        #expect(set.count == 1 && array.count == 1)
        #expect(publisher.subscriptions.allSatisfy { !$0.isCancelled })
        set.removeAll()
        array.removeAll()
        #expect(publisher.subscriptions.allSatisfy { $0.isCancelled })
    }

    @Test("C06 a sink given a second subscription cancels the new one and keeps the first")
    func secondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = ManualPublisher<Int, Never>.ManualSubscription()
        let second = ManualPublisher<Int, Never>.ManualSubscription()
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        #expect(second.isCancelled)
        #expect(!first.isCancelled)
        #expect(first.requested == [.unlimited])
    }

    @Test("C16 cancel releases the sink's closures and what they captured")
    func cancelReleases() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness != nil)
        cancellable?.cancel()
        publisher.send(completion: .finished)  // a well-behaved publisher drops its subscriber too
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C16 C19 cancel releases the sink's closures at once, while the publisher still holds the sink")
    func cancelReleasesAtOnce() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()  // keeps its subscriber for good
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink { _ in withExtendedLifetime(witness) {} }
        }
        publisher.send(1)
        #expect(weakWitness != nil, "never cancelled: kept")
        cancellable?.cancel()
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C16 cancel before any value releases the sink's closures at once")
    func cancelBeforeValueReleases() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink { _ in withExtendedLifetime(witness) {} }
        }
        cancellable?.cancel()
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C21 C16 cancel from inside the value closure releases the closures once it returns")
    func cancelInsideValueReleases() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var log: [Int] = []
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink { value in
                withExtendedLifetime(witness) { log.append(value) }
                cancellable?.cancel()
                withExtendedLifetime(witness) { log.append(-value) }  // still alive during the call
            }
        }
        publisher.send(1)
        publisher.send(2)
        #expect(log == [1, -1])
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C17 completion releases the sink's closures without any cancel")
    func completionReleases() {
        weak var weakWitness: Witness?
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = [1, 2].publisher.sink { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C17 a sink that has received values releases its closures at the completion")
    func completionReleasesAfterValues() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var seen: [Int] = []
        var completions = 0
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink(
                receiveCompletion: { _ in
                    withExtendedLifetime(witness) {}; completions += 1
                },
                receiveValue: {
                    withExtendedLifetime(witness) {}; seen.append($0)
                }
            )
        }
        publisher.send(1)
        publisher.send(2)
        #expect(weakWitness != nil)
        publisher.send(completion: .finished)
        #expect(seen == [1, 2])
        #expect(completions == 1)
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("a completion delivered from inside the value closure is received once; the closures go after that closure returns")
    func reentrantCompletion() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var log: [String] = []
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink(
                receiveCompletion: { _ in log.append("completion") },
                receiveValue: { value in
                    log.append("value \(value)")
                    // ManualPublisher delivers at once: the completion re-enters the sink here.
                    publisher.send(completion: .finished)
                    withExtendedLifetime(witness) {}
                    log.append("value \(value) returns")
                }
            )
        }
        publisher.send(1)
        publisher.send(2)  // after the completion: ignored
        #expect(log == ["value 1", "completion", "value 1 returns"])
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C02 a completion delivered from inside the completion closure is ignored (OpenCombine #208)")
    func reentrantCompletionInsideCompletion() {
        let publisher = ManualPublisher<Int, Never>()
        var completions = 0
        let c = publisher.sink(
            receiveCompletion: { _ in
                completions += 1
                // ManualPublisher delivers at once: the second completion re-enters the sink here.
                publisher.send(completion: .finished)
            },
            receiveValue: { _ in }
        )
        publisher.send(completion: .finished)
        #expect(completions == 1)
        _ = c
    }

    @Test("C02 a completion sent while the sink drops its closures (from a captured object's deinit) is ignored, no exclusivity trap (OpenCombine #208)")
    func completionFromDeinitWhileCompleting() {
        let publisher = ManualPublisher<Int, Never>()
        var completions = 0
        var cancellable: AnyCancellable?
        do {
            // Released when the sink drops its closures at the completion; its deinit completes again.
            let trigger = OnDeinit { publisher.send(completion: .finished) }
            cancellable = publisher.sink(
                receiveCompletion: { _ in completions += 1 },
                receiveValue: { _ in withExtendedLifetime(trigger) {} }
            )
        }
        publisher.send(completion: .finished)
        #expect(completions == 1)
        _ = cancellable
    }

    @Test("C02 a completion re-entering the completion closure after values is ignored, and the closures outlive the call")
    func reentrantCompletionInsideCompletionAfterValues() {
        weak var weakWitness: Witness?
        let publisher = ManualPublisher<Int, Never>()
        var log: [String] = []
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = publisher.sink(
                receiveCompletion: { _ in
                    log.append("completion")
                    publisher.send(completion: .finished)
                    // Still alive: the re-entrant completion must not free the closure that is running.
                    withExtendedLifetime(witness) { log.append("returns") }
                },
                receiveValue: { _ in withExtendedLifetime(witness) {} }
            )
        }
        publisher.send(1)
        publisher.send(completion: .finished)
        #expect(log == ["completion", "returns"])
        #expect(weakWitness == nil)
        _ = cancellable
    }

    @Test("C05 no value reaches a sink after cancel")
    func noValueAfterCancel() {
        let publisher = ManualPublisher<Int, Never>()
        var seen: [Int] = []
        let c = publisher.sink { seen.append($0) }
        publisher.send(1)
        c.cancel()
        publisher.send(2)
        #expect(seen == [1])
    }

    @Test("AnyPublisher and AnySubscriber forward every signal")
    func typeErasure() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.map { $0 * 2 }.eraseToAnyPublisher().subscribe(AnySubscriber(sub))
        #expect(sub.values == [2, 4])
        sub.request(.unlimited)
        #expect(sub.events.last == .finished)
        #expect(AnySubscriber(sub).combineIdentifier == sub.combineIdentifier)
    }

    @Test("C23 callbacks may re-enter: request, cancel and resubscribe from inside receive")
    func reentrant() {
        let publisher = (1...100).publisher
        var inner: [TestSubscriber<Int, Never>] = []
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { value, s in
            s.request(.max(1))
            let nested = TestSubscriber<Int, Never>(initialDemand: .max(1))
            publisher.subscribe(nested)
            inner.append(nested)
            if value == 50 { s.cancel() }
            return .none
        }
        publisher.subscribe(sub)
        #expect(sub.values == Array(1...50))
        #expect(inner.count == 50 && inner.allSatisfy { $0.values == [1] })
        #expect(sub.violations.isEmpty)
    }
}
