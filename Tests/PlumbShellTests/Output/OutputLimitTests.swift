import Foundation
import PlumbDiagrams
import Testing

@testable import PipeLanguage
@testable import PlumbShell

/// A deferred sink (background jobs, a live diagram's event lines) is written by its owner when the
/// terminal takes it, so it holds a bounded amount and says what it dropped.
@Suite struct OutputLimitTests {
    @Test("a deferred sink nobody takes from stops at its limit, drops whole lines, and its next take says how many")
    func deferredSinkIsBounded() {
        let sink = OutputSink(fd: -1, deferred: true, limit: 1000)
        for i in 0..<10_000 { sink.write("value \(i)\n") }
        for _ in 0..<5_000 {
            sink.appendLine(maxBytes: 16) { pointer in
                pointer[0] = UInt8(ascii: "x")
                pointer[1] = 10
                return 2
            }
        }
        let bytes = sink.take()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(bytes.count < 1200, "\(bytes.count) bytes kept")
        let kept = text.split(separator: "\n").filter { $0.hasPrefix("value ") }
        #expect(kept.first == "value 0" && kept.allSatisfy { $0.hasPrefix("value ") })
        let dropped = 10_000 - kept.count + 5_000
        #expect(text.hasSuffix(OutputSink.droppedNote(dropped)), "\(text.suffix(200))")
        // Counted once: the next take starts afresh.
        sink.write("value after\n")
        #expect(String(decoding: sink.take(), as: UTF8.self) == "value after\n")
    }

    @Test("a kept line goes in past the limit, after the note for the lines dropped before it")
    func keptLinePastTheLimit() {
        let sink = OutputSink(fd: -1, deferred: true, limit: 100)
        for i in 0..<100 { sink.write("value \(i)\n") }
        sink.append(kept: true) { $0.append(contentsOf: "cancelled\n".utf8) }
        sink.write("late\n")
        let lines = String(decoding: sink.take(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.prefix { $0.hasPrefix("value ") }
        #expect(kept.count >= 10 && kept.count < 20, "\(lines)")
        // The note where the lines went missing, the kept line, then the note for the one after it.
        #expect(
            Array(lines.dropFirst(kept.count)) == [
                Substring(OutputSink.droppedNote(100 - kept.count).dropLast()), "cancelled",
                Substring(OutputSink.droppedNote(1).dropLast()), "",
            ])
    }

    @Test("a run cancelled while its terminal did not read still prints cancelled, after the note (the CI flake of the Ctrl-S test)")
    func cancelledRunPastTheLimit() {
        let sink = OutputSink(fd: -1, deferred: true, limit: 2_000)
        let recorder = RunRecorder(
            job: 0, runtime: Runtime(clock: .virtual), formatter: EventFormatter(format: .text, style: Style(enabled: false)),
            sink: sink, onTerminal: {})
        recorder.handle(.subscribed)
        for i in 0..<10_000 { recorder.handle(.value(.int(i))) }
        recorder.handle(.cancelled)
        let lines = String(decoding: sink.take(), as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.hasSuffix("subscribed") == true, "\(lines.prefix(2))")
        #expect(lines.dropLast(2).dropFirst().allSatisfy { $0.contains("value ") })
        #expect(lines.dropLast().last?.hasPrefix("… ") == true && lines.dropLast().last?.contains("lines not shown") == true, "\(lines.suffix(2))")
        #expect(lines.last?.contains("+0.000s  cancelled") == true && lines.last?.hasSuffix("10000 values in 0 ms") == true, "\(lines.suffix(2))")
    }
}
