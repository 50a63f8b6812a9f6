import Reactive
import ReactiveTestSupport
import Testing

@Suite("Publishers: Result.Publisher and Optional.Publisher")
struct ResultOptionalPublisherTests {
    @Test("Result.Publisher publishes a success and finishes, or fails")
    func result() {
        #expect(recordedEvents(Result<Int, TestError>.success(4).publisher) == expectedEvents([4]))
        #expect(recordedEvents(Result<Int, TestError>.failure(TestError()).publisher) == expectedEvents([], "failure(boom)"))
        #expect(Result<Int, TestError>.Publisher(5).result == .success(5))
        #expect(Result<Int, TestError>.Publisher(TestError()) == Result<Int, TestError>.Publisher(.failure(TestError())))
    }

    @Test("C03 Result.Publisher's value waits for demand; the failure does not")
    func resultDemand() {
        let sub = recordSubscriber(Result<Int, TestError>.success(1).publisher, demand: .none)
        #expect(sub.events == [.subscription])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(1), .finished])
        let failing = recordSubscriber(Result<Int, TestError>.failure(TestError()).publisher, demand: .none)
        #expect(failing.events == [.subscription, .failure(TestError())])
    }

    @Test("Optional.Publisher publishes the value if there is one, then finishes")
    func optional() {
        #expect(recordedEvents(Optional(3).publisher) == expectedEvents([3]))
        #expect(recordedEvents(Optional<Int>.none.publisher) == expectedEvents([]))
        #expect(Optional(2).publisher == Optional<Int>.Publisher(2))
        let sub = recordSubscriber(Optional(9).publisher, demand: .none)
        #expect(sub.events == [.subscription])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(9), .finished])
    }

    @Test("C16 cancel before demand releases the value")
    func cancelReleases() {
        final class Box {}
        weak var weak: Box?
        let sub = TestSubscriber<Box, Never>(initialDemand: .none)
        do {
            let box = Box()
            weak = box
            Optional(box).publisher.subscribe(sub)
        }
        #expect(weak != nil)
        sub.cancel()
        #expect(weak == nil)
    }

    @Test("they compose with operators")
    func operators() {
        #expect(recordedEvents(Result<Int, TestError>.success(2).publisher.map { $0 * 10 }) == expectedEvents([20]))
        #expect(recordedEvents(Optional("a").publisher.append("b")) == expectedEvents(["a", "b"]))
    }
}
