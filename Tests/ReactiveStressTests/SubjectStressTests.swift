import Testing
import Reactive
import ReactiveTestSupport

/// Objects a test expects to be released by its end, watched without keeping them.
private final class WeakWatch {
    private var references: [() -> AnyObject?] = []
    /// Watches `object` and returns it.
    func watch<T: AnyObject>(_ object: T) -> T {
        references.append { [weak object] in object }
        return object
    }
    var allReleased: Bool { references.allSatisfy { $0() == nil } }
}

/// One subject and one sink's cancellable for a round of a cancel stress test, with what the
/// sink saw.
private final class SinkRound: @unchecked Sendable {
    // @unchecked: `cancellable` is written before the threads start and then only by the
    // canceller of this round; the rest is atomic.
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    let received = Counter()
    /// Value closures running now, and witnesses freed while one was.
    let inside = Counter()
    let freedInside = Counter()
    let completions = Counter()
    let valuesAfterCompletion = Counter()
}

/// A promise to share with the threads of a stress test.
private final class PromiseBox: Sendable {
    let promise = Lock<Future<Int, Never>.Promise?>(nil)
}

@Suite("Stress: subjects, Future, share", .timeLimit(.minutes(1)))
struct SubjectStressTests {
    @Test("C25 four threads sending into a subject: receive never overlaps, every value arrives, per-thread order kept")
    func serialisedDelivery() {
        let perThread = 2_000
        for _ in 0..<5 {
            let subject = PassthroughSubject<Int, Never>()
            let overlap = OverlapDetector()
            let sub = TestSubscriber<Int, Never>()
            sub.onValue = { _, _ in
                overlap.enter()
                defer { overlap.leave() }
                return .none
            }
            subject.subscribe(sub)
            let other = TestSubscriber<Int, Never>()
            subject.subscribe(other)
            let finished = runConcurrently(threads: 4) { thread in
                for i in 0..<perThread { subject.send(thread * perThread + i) }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(overlap.overlapCount == 0)
            #expect(sub.violations.isEmpty)
            #expect(other.violations.isEmpty)
            let values = sub.values
            #expect(values.count == 4 * perThread)
            #expect(Set(values).count == 4 * perThread)
            #expect(other.values.count == 4 * perThread)
            for thread in 0..<4 {
                let mine = values.filter { $0 / perThread == thread }
                #expect(mine == mine.sorted())
            }
        }
    }

    @Test("C25 a CurrentValueSubject under concurrent sends and requests serialises and keeps its value")
    func currentValueSerialised() {
        for _ in 0..<5 {
            let subject = CurrentValueSubject<Int, Never>(-1)
            let overlap = OverlapDetector()
            let sub = TestSubscriber<Int, Never>()
            sub.onValue = { _, _ in
                overlap.enter()
                defer { overlap.leave() }
                return .none
            }
            subject.subscribe(sub)
            let finished = runConcurrently(threads: 4) { thread in
                for i in 0..<1_000 { subject.value = thread * 1_000 + i }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(overlap.overlapCount == 0)
            #expect(sub.violations.isEmpty)
            #expect(sub.values.count == 4_001)
        }
    }

    @Test("C08 concurrent sends never exceed a subscriber's demand")
    func demandRespected() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let sub = TestSubscriber<Int, Never>(initialDemand: .max(5))
            sub.onValue = { value, _ in value % 3 == 0 ? .max(1) : .none }
            subject.subscribe(sub)
            let finished = runConcurrently(threads: 4) { thread in
                if thread == 3 {
                    for _ in 0..<50 { sub.request(.max(2)) }
                } else {
                    for i in 0..<500 { subject.send(i) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            let requested = sub.requests.reduce(Subscribers.Demand.none, +)
            let returned = sub.values.filter { $0 % 3 == 0 }.count
            #expect(sub.values.count <= (requested + returned).max ?? Int.max)
        }
    }

    @Test("C27 subscribe/cancel churn while values flow: grammar holds, every subscriber is released")
    func churn() {
        final class Weak: @unchecked Sendable {
            // @unchecked: `refs` is appended to under `lock` and read after the threads joined.
            let lock = Lock()
            var refs: [() -> AnyObject?] = []
            func add(_ object: AnyObject) { lock.guarded { [weak object] in refs.append { object } } }
        }
        let subject = PassthroughSubject<Int, Never>()
        let weak = Weak()
        let violations = Counter()
        // Bounded on both sides: a thread that finds a subscriber idle delivers for it, including
        // values other threads queue meanwhile, so endless senders could keep a subscribing thread
        // busy for as long as they send.
        let finished = runConcurrently(threads: 4) { thread in
            if thread < 2 {
                for i in 0..<20_000 { subject.send(i) }
            } else {
                for round in 0..<300 {
                    let sub = TestSubscriber<Int, Never>(initialDemand: round % 2 == 0 ? .unlimited : .max(3))
                    if round % 3 == 0 {
                        sub.onValue = { _, s in
                            s.cancel(); return .none
                        }
                    }
                    subject.subscribe(sub)
                    sub.cancel()
                    if !sub.violations.isEmpty { violations.increment() }
                    weak.add(sub)
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(violations.value == 0)
        #expect(weak.refs.allSatisfy { $0() == nil }, "a cancelled subscriber is still referenced")
        // No subscriber is left: a new value reaches nobody but a new subscriber.
        let last = TestSubscriber<Int, Never>()
        subject.subscribe(last)
        subject.send(42)
        #expect(last.values == [42])
    }

    @Test("C28 a completion racing values from other threads: one completion, nothing after it")
    func completionRacesValues() {
        for _ in 0..<100 {
            let subject = PassthroughSubject<Int, TestError>()
            let subs = (0..<3).map { _ in TestSubscriber<Int, TestError>() }
            for sub in subs { subject.subscribe(sub) }
            let finished = runConcurrently(threads: 4) { thread in
                switch thread {
                case 0:
                    for i in 0..<50 { subject.send(i) }
                    subject.send(completion: .finished)
                case 1:
                    for i in 0..<50 { subject.send(i) }
                    subject.send(completion: .failure(TestError()))
                default:
                    for i in 0..<100 { subject.send(i) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            for sub in subs {
                #expect(sub.violations.isEmpty)
                #expect(sub.completion != nil)
                if case .value = sub.events.last { Issue.record("a value arrived after the completion") }
            }
        }
    }

    @Test("C14 cancel from four threads at once cleans up exactly once")
    func concurrentCancel() {
        for _ in 0..<100 {
            // A subject's upstream link: the upstream sees exactly one cancel.
            let upstream = ManualPublisher<Int, Never>()
            let subject = PassthroughSubject<Int, Never>()
            let link = upstream.subscribe(subject)
            // A share: its last subscriber leaving cancels the upstream once.
            let sharedUpstream = ManualPublisher<Int, Never>()
            let shared = sharedUpstream.share()
            let shareSub = TestSubscriber<Int, Never>()
            shared.subscribe(shareSub)
            // A subject subscriber and a future subscriber, cancelled from every thread.
            let sub = TestSubscriber<Int, Never>()
            subject.subscribe(sub)
            let future = Future<Int, Never> { _ in }
            let futureSub = TestSubscriber<Int, Never>()
            future.subscribe(futureSub)
            let finished = runConcurrently(threads: 4) { thread in
                link.cancel()
                shareSub.cancel()
                sub.cancel()
                futureSub.cancel()
                subject.send(thread)
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(upstream.last?.cancelCount == 1)
            #expect(sharedUpstream.last?.cancelCount == 1)
            #expect(sub.values.isEmpty)
            #expect(sub.violations.isEmpty)
            #expect(futureSub.events == [.subscription])
        }
    }

    @Test("C16 a sink cancelled while a send is delivering to it (the subject's only subscriber): no crash, freed, gone")
    func cancelDuringSoleDelivery() {
        // The subject's only subscriber is delivered to without retaining its subscription: the
        // subject's list keeps it alive until whoever owns it retires it. Here the sink drops its
        // subscription as soon as it is cancelled, so a retire at the wrong moment would free a
        // subscription while a send is still inside it (TSan and the allocator would see it).
        final class Witness {}
        let rounds = (0..<1_000).map { _ in SinkRound() }
        let watched = WeakWatch()
        for round in rounds {
            let witness = watched.watch(Witness())
            let received = round.received
            round.cancellable = round.subject.sink { _ in
                withExtendedLifetime(witness) {}
                received.increment()
            }
        }
        // Two pairs of threads; in each pair one sends and one cancels, round by round.
        let finished = runConcurrently(threads: 4) { thread in
            for (index, round) in rounds.enumerated() where index % 2 == thread / 2 {
                if thread % 2 == 0 {
                    for value in 0..<20 { round.subject.send(value) }
                } else {
                    var spins = 0
                    while round.received.value == 0, spins < 2_000 { spins += 1 }
                    round.cancellable?.cancel()
                    round.cancellable = nil
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(watched.allReleased, "a cancelled sink's closure is still referenced")
        // Every round's subject is left without subscribers: a new one receives exactly what is sent.
        for round in rounds.prefix(50) {
            let late = TestSubscriber<Int, Never>()
            round.subject.subscribe(late)
            round.subject.send(7)
            #expect(late.values == [7])
        }
    }

    @Test(
        "C16 a cancel from another thread while a sink's value closure runs: its closures go only after that call returns",
        arguments: ["subject.map", "subject.merge(with: other)", "subject.flatMap { Just($0) }", "subject.combineLatest(Just(0))"])
    func cancelReleasesAfterRunningValue(path: String) {
        // The subject's conduit, or the engine behind `merge`, `flatMap` or `combineLatest`, takes a
        // cancelled sink's release over (ReleaseHandOff.swift): idle, the cancelling thread
        // releases; busy, the sending thread does, after the closure returns. The witness the
        // closure captures checks, as it is freed, that no closure is running.
        final class Witness {
            let round: SinkRound
            init(_ round: SinkRound) { self.round = round }
            deinit { if round.inside.value != 0 { round.freedInside.increment() } }
        }
        let rounds = (0..<500).map { _ in SinkRound() }
        let watched = WeakWatch()
        for round in rounds {
            let witness = watched.watch(Witness(round))
            let body: (Int) -> Void = { [round] _ in
                round.inside.increment()
                withExtendedLifetime(witness) {}
                round.received.increment()
                round.inside.increment(by: -1)
            }
            switch path {
            case "subject.map": round.cancellable = round.subject.map { $0 &+ 1 }.sink(receiveValue: body)
            case "subject.merge(with: other)":
                round.cancellable = round.subject.merge(with: PassthroughSubject<Int, Never>()).sink(receiveValue: body)
            case "subject.combineLatest(Just(0))":
                round.cancellable = round.subject.combineLatest(Just(0)).map { $0 &+ $1 }.sink(receiveValue: body)
            default: round.cancellable = round.subject.flatMap { Just($0) }.sink(receiveValue: body)
            }
        }
        let finished = runConcurrently(threads: 4) { thread in
            for (index, round) in rounds.enumerated() where index % 2 == thread / 2 {
                if thread % 2 == 0 {
                    for value in 0..<50 { round.subject.send(value) }
                } else {
                    var spins = 0
                    while round.received.value < index % 7, spins < 5_000 { spins += 1 }
                    round.cancellable?.cancel()
                    round.cancellable = nil
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(rounds.allSatisfy { $0.freedInside.value == 0 }, "a sink's closures were released while one ran")
        #expect(watched.allReleased, "a cancelled sink's closure is still referenced")
    }

    @Test("C16 C17 a cancel racing the subject's completion: the closures go once, the completion at most once")
    func cancelRacesCompletion() {
        final class Witness {}
        let rounds = (0..<1_000).map { _ in SinkRound() }
        let watched = WeakWatch()
        for round in rounds {
            let witness = watched.watch(Witness())
            round.cancellable = round.subject.sink(
                receiveCompletion: { [round] _ in round.completions.increment() },
                receiveValue: { [round] _ in
                    withExtendedLifetime(witness) {}
                    if round.completions.value > 0 { round.valuesAfterCompletion.increment() }
                })
        }
        let finished = runConcurrently(threads: 4) { thread in
            for (index, round) in rounds.enumerated() where index % 2 == thread / 2 {
                if thread % 2 == 0 {
                    round.subject.send(index)
                    round.subject.send(completion: .finished)
                } else {
                    round.cancellable?.cancel()
                    round.cancellable = nil
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish")
        #expect(rounds.allSatisfy { $0.completions.value <= 1 && $0.valuesAfterCompletion.value == 0 })
        #expect(watched.allReleased, "a sink's closure is still referenced after the race")
    }

    @Test(
        "C25 C27 C08 a subject with hundreds of subscribers: two threads send while two subscribe and cancel (many at once, so the subscriber table is squeezed mid-send); grammar, demand, per-thread order and release hold"
    )
    func churnAtScale() {
        final class Registry: @unchecked Sendable {
            // @unchecked: `all` is appended to under `lock` and read after the threads joined.
            let lock = Lock()
            var all: [TestSubscriber<Int, Never>] = []
            var weakRefs: [() -> AnyObject?] = []
            func add(_ sub: TestSubscriber<Int, Never>) { lock.guarded { all.append(sub) } }
            func retire(_ sub: TestSubscriber<Int, Never>) { lock.guarded { [weak sub] in weakRefs.append { sub } } }
        }
        let perThread = 1_000
        let subject = PassthroughSubject<Int, Never>()
        let witnesses = (0..<20).map { _ in TestSubscriber<Int, Never>() }
        for witness in witnesses { subject.subscribe(witness) }
        let registry = Registry()
        let finished = runConcurrently(threads: 4, timeout: 60) { thread in
            if thread < 2 {
                for i in 0..<perThread { subject.send(thread * perThread + i) }
                return
            }
            var live: [TestSubscriber<Int, Never>] = []
            var random: UInt64 = thread == 2 ? 0x2545_F491_4F6C_DD1D : 0x9E37_79B9_7F4A_7C15
            func pick() -> Int {
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                return Int(random % UInt64(live.count))
            }
            for round in 0..<800 {
                let sub = TestSubscriber<Int, Never>(initialDemand: round % 4 == 0 ? .max(5) : .unlimited)
                if round % 7 == 0 {
                    sub.onValue = { _, me in
                        me.cancel(); return .none
                    }
                }
                registry.add(sub)
                subject.subscribe(sub)
                live.append(sub)
                guard live.count > 120 else { continue }
                // Mostly one at a time; now and then most of them at once.
                for _ in 0..<(round % 60 == 0 ? 100 : 1) {
                    let victim = live.remove(at: pick())
                    victim.cancel()
                    registry.retire(victim)
                }
            }
            for sub in live {
                sub.cancel()
                registry.retire(sub)
            }
            live = []
        }
        #expect(finished, "watchdog: threads did not finish")
        func inOrderPerThread(_ values: [Int]) -> Bool {
            (0..<2).allSatisfy { thread in
                let mine = values.filter { $0 / perThread == thread }
                return mine == mine.sorted() && Set(mine).count == mine.count
            }
        }
        for witness in witnesses {
            #expect(witness.values.count == 2 * perThread)
            #expect(inOrderPerThread(witness.values))
            #expect(witness.violations.isEmpty)
        }
        var failures = 0
        for sub in registry.all where !sub.violations.isEmpty || !inOrderPerThread(sub.values) { failures += 1 }
        #expect(failures == 0, "\(failures) churned subscribers broke the grammar, their demand or the order")
        registry.all = []
        #expect(registry.weakRefs.allSatisfy { $0() == nil }, "a cancelled subscriber is still referenced")
        // Only the witnesses are left: a new subscriber comes after them.
        let last = TestSubscriber<Int, Never>()
        subject.subscribe(last)
        subject.send(-1)
        #expect(last.values == [-1])
        #expect(witnesses.allSatisfy { $0.values.last == -1 })
    }

    @Test("C31 two threads fulfilling a future at once while others subscribe: one result per subscriber, the same for all")
    func futureRace() {
        for _ in 0..<100 {
            let box = PromiseBox()
            let future = Future<Int, Never> { promise in box.promise.withLock { $0 = promise } }
            let promise = box.promise.withLock { $0 }
            let early = TestSubscriber<Int, Never>()
            future.subscribe(early)
            let subs = (0..<2).map { _ in TestSubscriber<Int, Never>(initialDemand: .none) }
            let finished = runConcurrently(threads: 4) { thread in
                switch thread {
                case 0, 1:
                    promise?(.success(thread))
                default:
                    let sub = subs[thread - 2]
                    future.subscribe(sub)
                    sub.request(.max(1))
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            let winner = early.values.first
            #expect(winner != nil)
            for sub in subs + [early] {
                #expect(sub.violations.isEmpty)
                #expect(sub.values.count == 1)
                #expect(sub.values.first == winner)
                #expect(sub.completion == .finished)
            }
        }
    }

    @Test("C12 share under concurrent sends: each subscriber within its own demand, none blocked")
    func shareDemand() {
        for _ in 0..<10 {
            let subject = PassthroughSubject<Int, Never>()
            let shared = subject.share()
            let zero = TestSubscriber<Int, Never>(initialDemand: .none)
            let few = TestSubscriber<Int, Never>(initialDemand: .max(10))
            let all = TestSubscriber<Int, Never>()
            shared.subscribe(zero)
            shared.subscribe(few)
            shared.subscribe(all)
            let finished = runConcurrently(threads: 4) { thread in
                for i in 0..<500 { subject.send(thread * 500 + i) }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(zero.values.isEmpty)
            #expect(few.values.count == 10)
            #expect(all.values.count == 2_000)
            #expect([zero, few, all].allSatisfy { $0.violations.isEmpty })
        }
    }
}
