import Foundation
import Synchronization
import Testing

@testable import PipeLanguage
@testable import PlumbShell

/// The recorder keeps a run's values in a `ValueLog` that the event thread appends to without a
/// lock; readers (`:jobs`, the live diagram, the end of the run) take them out under the
/// recorder's lock while values still arrive.
@Suite struct ValueLogTests {
    @Test("a full log refuses further values; the ones it kept come out in order, with their times")
    func capacity() {
        let log = ValueLog(capacity: 3)
        let accepted = (1...5).map { log.append(.int($0), at: Int64($0) * 10) }
        #expect(accepted == [true, true, true, false, false])
        var values: [Value] = []
        var timeline: [(time: Int64, token: MarbleNotation.Token)] = []
        log.take(into: &values, timeline: &timeline)
        #expect(values == [.int(1), .int(2), .int(3)])
        #expect(timeline.map(\.time) == [10, 20, 30])
        log.take(into: &values, timeline: &timeline)
        #expect(values.count == 3, "a second take moves nothing twice")
    }

    @Test("a reader taking values while the writer appends gets each once, in order, across chunks")
    func concurrentTake() async {
        let total = ValueLog.chunkSize * 20 + 17
        let log = ValueLog(capacity: total)
        let writerDone = Atomic<Bool>(false)
        let writer = Thread {
            for i in 0..<total { _ = log.append(.string("v\(i)"), at: Int64(i)) }
            writerDone.store(true, ordering: .releasing)
        }
        writer.start()
        var values: [Value] = []
        var timeline: [(time: Int64, token: MarbleNotation.Token)] = []
        var takes = 0
        while true {
            let done = writerDone.load(ordering: .acquiring)
            log.take(into: &values, timeline: &timeline)
            takes += 1
            if done { break }
        }
        #expect(values.count == total)
        #expect(values == (0..<total).map { .string("v\($0)") })
        #expect(timeline.map(\.time) == (0..<total).map { Int64($0) })
        #expect(takes > 1)
    }

    @Test("values left in the log when it goes are released (strings are not leaked or freed twice)")
    func releasesTheRest() {
        var log: ValueLog? = ValueLog(capacity: ValueLog.chunkSize * 2)
        for i in 0..<(ValueLog.chunkSize + 5) { _ = log?.append(.string(String(repeating: "x", count: 40) + "\(i)"), at: 0) }
        var values: [Value] = []
        var timeline: [(time: Int64, token: MarbleNotation.Token)] = []
        log?.take(into: &values, timeline: &timeline)
        for i in 0..<7 { _ = log?.append(.string("late \(i)"), at: 0) }
        log = nil  // deinitialises the seven not taken; under ASan/TSan a double free would show
        #expect(values.count == ValueLog.chunkSize + 5)
        #expect(values.last == .string(String(repeating: "x", count: 40) + "\(ValueLog.chunkSize + 4)"))
    }

    @Test("a recorder read while values arrive: the count is never below the values kept, which are a prefix")
    func recorderSnapshotsDuringRun() {
        let runtime = Runtime(clock: .virtual)
        let recorder = RunRecorder(
            job: 0, runtime: runtime, formatter: EventFormatter(format: .text, style: Style(enabled: false)),
            sink: nil, onTerminal: {})
        let total = 30_000
        let finished = Atomic<Bool>(false)
        recorder.handle(.subscribed)
        let writer = Thread {
            for i in 0..<total { recorder.handle(.value(.int(i))) }
            recorder.handle(.finished)
            finished.store(true, ordering: .releasing)
        }
        writer.start()
        var reads = 0
        var lastCount = 0
        while !finished.load(ordering: .acquiring) {
            let record = recorder.snapshot
            #expect(record.count >= record.values.count)
            #expect(record.count >= lastCount)
            #expect(record.values.last.map { $0 == .int(record.values.count - 1) } ?? true)
            lastCount = record.count
            reads += 1
        }
        let record = recorder.snapshot
        #expect(record.count == total)
        #expect(record.values == (0..<total).map { .int($0) })
        #expect(record.timeline.count == total + 1)
        #expect(record.timeline.last?.token == .finished, "the completion follows every value in the timeline")
        #expect(record.termination == .finished)
    }
}
