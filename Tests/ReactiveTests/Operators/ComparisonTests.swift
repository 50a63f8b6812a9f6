import Reactive
import ReactiveTestSupport
import Testing

private struct Item: Sendable, CustomStringConvertible {
    let key: Int
    let tag: String
    var description: String { "\(key)\(tag)" }
}

@Suite("Operators: min, max")
struct ComparisonTests {
    @Test("publish the smallest and largest value")
    func values() {
        #expect(recordedEvents([3, 1, 2].publisher.min()) == expectedEvents([1]))
        #expect(recordedEvents([3, 1, 2].publisher.max()) == expectedEvents([3]))
        #expect(recordedEvents(["bb", "a", "ccc"].publisher.min { $0.count < $1.count }) == expectedEvents(["a"]))
        #expect(recordedEvents(["bb", "a", "ccc"].publisher.max { $0.count < $1.count }) == expectedEvents(["ccc"]))
        #expect(recordedEvents(Empty<Int, Never>().min()) == expectedEvents([]))
    }

    @Test("the first of equal values wins, as in Swift's min and max")
    func ties() {
        let items = [Item(key: 1, tag: "a"), Item(key: 2, tag: "b"), Item(key: 1, tag: "c"), Item(key: 2, tag: "d")]
        #expect(recordedEvents(items.publisher.min { $0.key < $1.key }) == expectedEvents(["1a"]))
        #expect(recordedEvents(items.publisher.max { $0.key < $1.key }) == expectedEvents(["2b"]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).max()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the result until demand")
    func demand() {
        expectReducer(sending: [2, 1, 3], result: "1") { $0.min() }
        expectReducer(sending: [2, 1, 3], result: "3") { $0.max() }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.min() }
        expectCancellation(wrapping: true) { $0.max() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.min {
                token.touch(); return $0 < $1
            }
        }
    }
}
