import Reactive
import ReactiveTestSupport
import Testing

/// A text stream that keeps what is written.
private final class PrintCapture: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
}

@Suite("Operators: print")
struct PrintTests {
    /// Combine writes a sequence publisher's subscription as the sequence itself: `[1, 2, 3].publisher
    /// .print()` prints `receive subscription: ([1, 2, 3])`, `(1...3).publisher` prints `(1...3)`
    /// (widely quoted Combine output, e.g. the "print" examples of Combine tutorials).
    @Test("prints every event as Combine does, a sequence's subscription as the sequence")
    func lines() {
        let capture = PrintCapture()
        #expect(recordedEvents([1, 2].publisher.print("p", to: capture)) == expectedEvents([1, 2]))
        let range = PrintCapture()
        _ = recordedEvents((1...3).publisher.print(to: range))
        #expect(range.lines.first == "receive subscription: (1...3)")
        #expect(capture.lines == [
            "p: receive subscription: ([1, 2])", "p: request unlimited", "p: receive value: (1)",
            "p: receive value: (2)", "p: receive finished",
        ])
    }

    @Test("no prefix, failure, cancel and synchronous demand")
    func otherEvents() {
        let capture = PrintCapture()
        _ = recordedEvents(Fail<Int, TestError>(error: TestError()).print(to: capture))
        #expect(capture.lines.last == "receive error: (boom)")

        let cancelled = PrintCapture()
        let source = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        source.print("c", to: cancelled).subscribe(sub)
        source.send(5)
        sub.cancel()
        #expect(cancelled.lines.dropFirst() == [
            "c: request max: (1)", "c: receive value: (5)", "c: request max: (1) (synchronous)", "c: receive cancel",
        ])
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.print(to: PrintCapture()), demand: .max(2))
        #expect(sub.values == [1, 2])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.print(to: PrintCapture()) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.print(to: PrintCapture()) }
    }
}
