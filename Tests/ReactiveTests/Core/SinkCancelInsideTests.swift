import Reactive
import ReactiveTestSupport
import Testing

/// C16 for `Sink`: a cancel from inside its own value closure releases the closures (and what they
/// captured) once that call has returned, while the sink itself is still referenced, and never
/// during the call; no value passes after it (C15). Pinned for each way a sink is fed: a sequence
/// directly, through `map`/`filter`, `scan`/`removeDuplicates` and `tryMap`/`tryFilter` (the sequence takes the
/// release over, `ReleaseHandOff.swift`), and a subject, directly and through relays (its
/// conduit takes the release over the same way).
@Suite("Core: a Sink's closures after a cancel from inside them")
struct SinkCancelInsideTests {
    /// Counts its own deinit.
    final class Witness {
        let freed: Counter
        init(_ freed: Counter) { self.freed = freed }
        deinit { freed.increment() }
    }

    /// What one run saw: values received, and whether the witness was alive inside the closure
    /// after the cancel returned.
    final class Observed {
        var values: [Int] = []
        var aliveAfterCancel: Bool?
        var cancelled = false
    }

    /// Lets a sink's closure reach the sink.
    final class SinkBox<Failure: Error> {
        var sink: Subscribers.Sink<Int, Failure>?
    }

    /// A sink that cancels itself at its second value; its closure captures a witness.
    static func makeSink<Failure: Error>(
        _ failure: Failure.Type, freed: Counter, observed: Observed
    ) -> Subscribers.Sink<Int, Failure> {
        let box = SinkBox<Failure>()
        let witness = Witness(freed)
        let sink = Subscribers.Sink<Int, Failure>(receiveCompletion: { _ in }) { value in
            observed.values.append(value)
            if observed.values.count == 2 {
                box.sink?.cancel()
                box.sink = nil
                observed.cancelled = true
                observed.aliveAfterCancel = freed.value == 0
            }
            withExtendedLifetime(witness) {}
        }
        box.sink = sink
        return sink
    }

    static func check(_ observed: Observed, _ freed: Counter, _ sink: AnyObject, _ values: [Int]) {
        #expect(observed.cancelled)
        #expect(observed.aliveAfterCancel == true, "released during the value closure")
        #expect(observed.values == values, "a value after the cancel (C15)")
        #expect(freed.value == 1, "the closures are still held after the call returned (C16)")
        withExtendedLifetime(sink) {}
    }

    @Test("C16 a sink on a sequence")
    func sequence() {
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        (1...10).publisher.subscribe(sink)
        Self.check(observed, freed, sink, [1, 2])
    }

    @Test("C16 a sink on a sequence through map and filter")
    func throughMapFilter() {
        func streamed<P: Publisher>(_ p: P) -> some Publisher<Int, Never> where P.Output == Int, P.Failure == Never {
            // Through a generic function: `Publishers.Sequence`'s own `map` and `filter` are eager.
            p.map { $0 &* 3 }.filter { $0 % 2 == 0 }
        }
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        streamed((1...10).publisher).subscribe(sink)
        Self.check(observed, freed, sink, [6, 12])
    }

    @Test("C16 a sink on a sequence through scan and removeDuplicates")
    func throughScan() {
        func streamed<P: Publisher>(_ p: P) -> some Publisher<Int, Never> where P.Output == Int, P.Failure == Never {
            p.scan(0) { $0 &+ $1 }.removeDuplicates()
        }
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        streamed((1...10).publisher).subscribe(sink)
        Self.check(observed, freed, sink, [1, 3])
    }

    @Test("C16 a sink on a sequence through tryMap and tryFilter")
    func throughTryOperators() {
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink((any Error).self, freed: freed, observed: observed)
        (1...10).publisher.tryMap { $0 &* 3 }.tryFilter { $0 % 2 == 0 }.subscribe(sink)
        Self.check(observed, freed, sink, [6, 12])
    }

    @Test("C16 a sink on a subject: released when the send that cancelled returns")
    func subject() {
        let freed = Counter()
        let observed = Observed()
        let subject = PassthroughSubject<Int, Never>()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        subject.subscribe(sink)
        subject.send(1)
        subject.send(2)
        #expect(freed.value == 1)
        subject.send(3)
        Self.check(observed, freed, sink, [1, 2])
    }

    @Test("C16 a sink on a subject through map and filter")
    func subjectThroughMapFilter() {
        let freed = Counter()
        let observed = Observed()
        let subject = PassthroughSubject<Int, Never>()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        subject.map { $0 &* 10 }.filter { _ in true }.subscribe(sink)
        for value in 1...4 { subject.send(value) }
        Self.check(observed, freed, sink, [10, 20])
    }

    @Test("C16 a sink on a subject through tryMap and tryFilter")
    func subjectThroughTryOperators() {
        let freed = Counter()
        let observed = Observed()
        let subject = PassthroughSubject<Int, Never>()
        let sink = Self.makeSink((any Error).self, freed: freed, observed: observed)
        subject.tryMap { $0 &* 3 }.tryFilter { _ in true }.subscribe(sink)
        for value in 1...4 { subject.send(value) }
        Self.check(observed, freed, sink, [3, 6])
    }

    @Test("C16 a sink on an erased sequence through scan, and on an erased subject through map")
    func erased() {
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        (1...10).publisher.eraseToAnyPublisher().scan(0, +).subscribe(sink)
        Self.check(observed, freed, sink, [1, 3])
        let subjectFreed = Counter()
        let subjectObserved = Observed()
        let subject = PassthroughSubject<Int, Never>()
        let subjectSink = Self.makeSink(Never.self, freed: subjectFreed, observed: subjectObserved)
        subject.eraseToAnyPublisher().map { $0 &* 2 }.subscribe(subjectSink)
        for value in 1...4 { subject.send(value) }
        Self.check(subjectObserved, subjectFreed, subjectSink, [2, 4])
    }

    @Test("C16 a sink on flatMap, on merge and on switchToLatest")
    func mergeEngines() {
        let freed = Counter()
        let observed = Observed()
        let sink = Self.makeSink(Never.self, freed: freed, observed: observed)
        (1...10).publisher.flatMap { [$0].publisher }.subscribe(sink)
        Self.check(observed, freed, sink, [1, 2])
        let mergedFreed = Counter()
        let mergedObserved = Observed()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let mergedSink = Self.makeSink(Never.self, freed: mergedFreed, observed: mergedObserved)
        a.merge(with: b).subscribe(mergedSink)
        a.send(1)
        b.send(2)
        b.send(3)
        a.send(4)
        Self.check(mergedObserved, mergedFreed, mergedSink, [1, 2])
        let latestFreed = Counter()
        let latestObserved = Observed()
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let latestSink = Self.makeSink(Never.self, freed: latestFreed, observed: latestObserved)
        outer.switchToLatest().subscribe(latestSink)
        outer.send(inner)
        for value in 5...8 { inner.send(value) }
        Self.check(latestObserved, latestFreed, latestSink, [5, 6])
    }

    @Test("C16 a sink on zip and on combineLatest")
    func combiningEngines() {
        let zipFreed = Counter()
        let zipObserved = Observed()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let zipSink = Self.makeSink(Never.self, freed: zipFreed, observed: zipObserved)
        a.zip(b).map { $0 &* 10 &+ $1 }.subscribe(zipSink)
        for value in 1...4 {
            a.send(value)
            b.send(value)
        }
        Self.check(zipObserved, zipFreed, zipSink, [11, 22])
        let latestFreed = Counter()
        let latestObserved = Observed()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let latestSink = Self.makeSink(Never.self, freed: latestFreed, observed: latestObserved)
        c.combineLatest(d).map { $0 &* 10 &+ $1 }.subscribe(latestSink)
        c.send(1)
        d.send(1)
        c.send(2)
        d.send(2)
        Self.check(latestObserved, latestFreed, latestSink, [11, 21])
    }

    @Test("C16 a sink cancelled in the current value a CurrentValueSubject delivers as it subscribes")
    func currentValueOnSubscribe() {
        // Combine delivers the current value inside `receive(subscription:)` (the sink requests
        // there); a cancel from inside it is seen once that call has returned.
        let freed = Counter()
        let box = SinkBox<Never>()
        var values: [Int] = []
        var aliveAfterCancel: Bool?
        do {
            let witness = Witness(freed)
            box.sink = Subscribers.Sink(receiveCompletion: { _ in }) { value in
                values.append(value)
                box.sink?.cancel()
                aliveAfterCancel = freed.value == 0
                withExtendedLifetime(witness) {}
            }
        }
        guard let sink = box.sink else { return }
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.subscribe(sink)
        #expect(aliveAfterCancel == true, "released during the value closure")
        #expect(freed.value == 1, "the closures are still held after the subscription returned (C16)")
        subject.send(2)
        #expect(values == [1], "a value after the cancel (C15)")
        box.sink = nil
        withExtendedLifetime(sink) {}
    }

    @Test("C16 a sink on a subject cancelled from outside, between values and after the completion")
    func subjectCancelledOutside() {
        let freed = Counter()
        var values: [Int] = []
        var completions = 0
        let subject = PassthroughSubject<Int, Never>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let witness = Witness(freed)
            sink = Subscribers.Sink(receiveCompletion: { _ in completions += 1 }) { value in
                values.append(value)
                withExtendedLifetime(witness) {}
            }
        }
        subject.map { $0 + 1 }.subscribe(sink)
        subject.send(1)
        sink.cancel()  // idle: released at once
        #expect(freed.value == 1)
        subject.send(2)
        subject.send(completion: .finished)
        sink.cancel()
        #expect(values == [2])
        #expect(completions == 0)
        // A sink whose subject completed first: the completion released it; a cancel after is nothing.
        let freedLater = Counter()
        let other = PassthroughSubject<Int, Never>()
        var otherCompletions = 0
        let second: Subscribers.Sink<Int, Never>
        do {
            let witness = Witness(freedLater)
            second = Subscribers.Sink(receiveCompletion: { _ in otherCompletions += 1 }) { _ in withExtendedLifetime(witness) {} }
        }
        other.subscribe(second)
        other.send(completion: .finished)
        #expect(freedLater.value == 1)
        second.cancel()
        #expect(otherCompletions == 1)
    }

    @Test("C16 a sink cancelled from inside a tryMap closure upstream of it")
    func cancelInsideUpstreamClosure() {
        let freed = Counter()
        let box = SinkBox<any Error>()
        var values: [Int] = []
        do {
            let witness = Witness(freed)
            box.sink = Subscribers.Sink(receiveCompletion: { _ in }) { value in
                values.append(value)
                withExtendedLifetime(witness) {}
            }
        }
        guard let sink = box.sink else { return }
        (1...10).publisher.tryMap { n -> Int in
            if n == 3 { box.sink?.cancel() }
            return n
        }.tryFilter { _ in true }.subscribe(sink)
        #expect(values == [1, 2])
        #expect(freed.value == 1)
        withExtendedLifetime(sink) {}
    }
}
