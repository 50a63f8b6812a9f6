import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: dropFirst(_:)")
struct DropTests {
    @Test("skips the first values")
    func values() {
        #expect(events((1...5).publisher.dropFirst(2)) == expected([3, 4, 5]))
        #expect(events((1...3).publisher.dropFirst()) == expected([2, 3]))
        #expect(events((1...3).publisher.dropFirst(5)) == expected([]))
        #expect(events((1...2).publisher.dropFirst(0)) == expected([1, 2]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(events(Fail<Int, TestError>(error: TestError()).dropFirst()) == expected([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = record(source.dropFirst(2), demand: .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .max(1))
        #expect(source.send(3) == .none)
        let sub = record((1...10).publisher.dropFirst(3), demand: .max(2))
        #expect(sub.values == [4, 5])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.dropFirst() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.dropFirst() }
    }
}
