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
        #expect(events([3, 1, 2].publisher.min()) == expected([1]))
        #expect(events([3, 1, 2].publisher.max()) == expected([3]))
        #expect(events(["bb", "a", "ccc"].publisher.min { $0.count < $1.count }) == expected(["a"]))
        #expect(events(["bb", "a", "ccc"].publisher.max { $0.count < $1.count }) == expected(["ccc"]))
        #expect(events(Empty<Int, Never>().min()) == expected([]))
    }

    @Test("the first of equal values wins, as in Swift's min and max")
    func ties() {
        let items = [Item(key: 1, tag: "a"), Item(key: 2, tag: "b"), Item(key: 1, tag: "c"), Item(key: 2, tag: "d")]
        #expect(events(items.publisher.min { $0.key < $1.key }) == expected(["1a"]))
        #expect(events(items.publisher.max { $0.key < $1.key }) == expected(["2b"]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(events(Fail<Int, TestError>(error: TestError()).max()) == expected([], "failure(boom)"))
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
        expectLifecycle { source, token in source.min { token.touch(); return $0 < $1 } }
    }
}
