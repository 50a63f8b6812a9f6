@testable import Reactive
import Testing

/// Which sinks leave the release of their closures after a cancel to their source
/// (`ReleaseHandOff.swift`), read from the sink's `handsOff` after subscribing. A handed-off sink
/// announces no value (no locked instruction per value), so a path that silently stops handing off
/// costs every value of it; `SinkCancelInsideTests` pins that each path still releases at the
/// right moment. The subject's and the erased paths hand off since 2026-12-04 (issue 36).
@Suite("Core: which sources take a cancelled sink's release over")
struct ReleaseHandOffPathTests {
    static func sink() -> Subscribers.Sink<Int, Never> {
        Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }

    static func throwingSink() -> Subscribers.Sink<Int, any Error> {
        Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }

    @Test("a sequence, directly and through map and filter")
    func sequence() {
        let direct = Self.sink()
        [1, 2, 3].publisher.subscribe(direct)
        let relayed = Self.sink()
        streamed((1...3).publisher).map { $0 + 1 }.filter { $0 > 0 }.subscribe(relayed)
        #expect(direct.handsOff)
        #expect(relayed.handsOff)
    }

    @Test("a subject, directly, through map and filter, and through tryMap")
    func subject() {
        let subject = PassthroughSubject<Int, Never>()
        let direct = Self.sink()
        subject.subscribe(direct)
        let relayed = Self.sink()
        subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(relayed)
        let gated = Self.throwingSink()
        subject.tryMap { $0 + 1 }.subscribe(gated)
        let current = Self.sink()
        CurrentValueSubject<Int, Never>(0).subscribe(current)
        #expect(direct.handsOff)
        #expect(relayed.handsOff)
        #expect(gated.handsOff)
        #expect(current.handsOff)
        for sink in [direct, relayed, current] { sink.cancel() }
        gated.cancel()
    }

    @Test("an erased sequence or subject, directly and through scan or map")
    func erased() {
        let subject = PassthroughSubject<Int, Never>()
        let sequenceDirect = Self.sink()
        (1...3).publisher.eraseToAnyPublisher().subscribe(sequenceDirect)
        let sequenceScan = Self.sink()
        (1...3).publisher.eraseToAnyPublisher().scan(0, +).subscribe(sequenceScan)
        let subjectMap = Self.sink()
        subject.eraseToAnyPublisher().map { $0 * 2 }.subscribe(subjectMap)
        #expect(sequenceDirect.handsOff)
        #expect(sequenceScan.handsOff)
        #expect(subjectMap.handsOff)
        subjectMap.cancel()
    }

    @Test("a merge engine: flatMap, merge, switchToLatest, and a sequence through flatMap and map")
    func mergeEngine() {
        let subject = PassthroughSubject<Int, Never>()
        let flat = Self.sink()
        subject.flatMap { Just($0) }.subscribe(flat)
        let merged = Self.sink()
        subject.merge(with: PassthroughSubject<Int, Never>()).map { $0 + 1 }.subscribe(merged)
        let latest = Self.sink()
        PassthroughSubject<PassthroughSubject<Int, Never>, Never>().switchToLatest().subscribe(latest)
        let sequence = Self.sink()
        (1...3).publisher.flatMap { [$0, $0].publisher }.subscribe(sequence)
        #expect(flat.handsOff)
        #expect(merged.handsOff)
        #expect(latest.handsOff)
        #expect(sequence.handsOff)
        for sink in [flat, merged, latest] { sink.cancel() }
    }

    @Test("a combining engine: zip and combineLatest")
    func combiningEngine() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let zipped = Subscribers.Sink<(Int, Int), Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        a.zip(b).subscribe(zipped)
        let latest = Self.sink()
        a.combineLatest(b).map { $0 + $1 }.subscribe(latest)
        #expect(zipped.handsOff)
        #expect(latest.handsOff)
        zipped.cancel()
        latest.cancel()
    }

    @Test("not through an operator that delivers elsewhere or later: the sink announces its values")
    func notThroughOtherOperators() {
        let subject = PassthroughSubject<Int, Never>()
        let scheduled = Self.sink()
        subject.receive(on: ImmediateScheduler.shared).subscribe(scheduled)
        let buffered = Self.sink()
        subject.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).subscribe(buffered)
        let erasedScheduled = Self.sink()
        subject.receive(on: ImmediateScheduler.shared).eraseToAnyPublisher().subscribe(erasedScheduled)
        #expect(!scheduled.handsOff)
        #expect(!buffered.handsOff)
        #expect(!erasedScheduled.handsOff)
        for sink in [scheduled, buffered, erasedScheduled] { sink.cancel() }
    }

    /// Hides the sequence's type from the optimiser's view of the chain (as plumb-bench does).
    static func identity<P: Publisher>(_ publisher: P) -> P { publisher }
    func streamed<P: Publisher>(_ publisher: P) -> P { Self.identity(publisher) }
}
