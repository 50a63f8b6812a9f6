import Foundation
import Testing

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
}
