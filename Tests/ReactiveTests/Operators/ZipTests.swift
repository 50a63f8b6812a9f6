import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: zip")
struct ZipTests {
    @Test("C36 tuples in order")
    func tuples() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<String, TestError>()
        let sub = TestSubscriber<String, TestError>()
        a.zip(b) { "\($0)\($1)" }.subscribe(sub)
        a.send(1)
        a.send(2)
        b.send("a")
        a.send(3)
        b.send("b")
        #expect(sub.values == ["1a", "2b"])
        #expect(sub.violations.isEmpty)
    }

    @Test("C36 finishes when an input finishes with nothing buffered, and cancels the others")
    func finishes() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(sub)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        #expect(sub.completion == nil, "two values of a still wait for b")
        b.send(10)
        #expect(sub.completion == nil)
        b.send(20)
        #expect(sub.values.map { $0.0 } == [1, 2])
        #expect(sub.completion == .finished)
        #expect(b.last?.isCancelled == true)
    }

    @Test("C36 a failure cancels the others")
    func failure() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let c = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<(Int, Int, Int), TestError>()
        a.zip(b, c).subscribe(sub)
        b.send(completion: .failure(TestError()))
        #expect(sub.completion == .failure(TestError()))
        #expect(a.last?.isCancelled == true)
        #expect(c.last?.isCancelled == true)
        #expect(b.last?.isCancelled == false)
    }

    @Test("C08 each input is asked for what the downstream asked for")
    func demand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<(Int, Int), Never>(initialDemand: .max(2))
        a.zip(b).subscribe(sub)
        #expect(a.last?.requested == [.max(2)])
        #expect(b.last?.requested == [.max(2)])
        sub.request(.max(1))
        #expect(a.last?.totalDemand == .max(3))
        let limited = TestSubscriber<(Int, Int), Never>(initialDemand: .max(2))
        (1...10).publisher.zip((1...10).publisher).subscribe(limited)
        #expect(limited.values.count == 2)
        #expect(limited.violations.isEmpty)
    }

    @Test("Zip3 and Zip4 with and without transform")
    func arities() {
        let s3 = TestSubscriber<Int, Never>()
        [1, 2].publisher.zip([10, 20].publisher, [100, 200].publisher) { $0 + $1 + $2 }.subscribe(s3)
        #expect(s3.values == [111, 222])
        #expect(s3.completion == .finished)
        let s4 = TestSubscriber<Int, Never>()
        [1].publisher.zip([2].publisher, [3].publisher, [4].publisher).map { $0 + $1 + $2 + $3 }.subscribe(s4)
        #expect(s4.values == [10])
        let t: Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = Just(1).zip(Just(2), Just(3), Just(4))
        #expect(t.d.output == 4)
    }

    @Test("C18 cancel cancels every input")
    func cancel() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<(Int, Int), Never>()
        a.zip(b).subscribe(sub)
        sub.cancel()
        #expect(a.last?.isCancelled == true)
        #expect(b.last?.isCancelled == true)
        a.send(1)
        b.send(1)
        #expect(sub.values.isEmpty)
    }
}

@Suite("Combining: combineLatest")
struct CombineLatestTests {
    @Test("latest of each input once all have published")
    func latest() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<String, TestError>()
        let sub = TestSubscriber<String, TestError>()
        a.combineLatest(b) { "\($0)\($1)" }.subscribe(sub)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(sub.values == ["2x", "3x", "3y"])
        a.send(completion: .finished)
        #expect(sub.completion == nil)
        b.send("z")
        b.send(completion: .finished)
        #expect(sub.values.last == "3z")
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 without demand a burst yields one tuple of the latest values")
    func demand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(sub)
        a.send(1)
        b.send(1)
        a.send(2)
        a.send(3)
        #expect(sub.values.count == 1)
        sub.request(.max(1))
        #expect(sub.values.map { $0.0 } == [1, 3])
        #expect(sub.violations.isEmpty)
    }

    @Test("a failure cancels the others")
    func failure() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(sub)
        a.send(completion: .failure(TestError()))
        #expect(sub.completion == .failure(TestError()))
        #expect(b.last?.isCancelled == true)
    }

    @Test("CombineLatest3 and CombineLatest4")
    func arities() {
        let s3 = TestSubscriber<Int, Never>()
        Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(s3)
        #expect(s3.events == [.subscription, .value(6), .finished])
        let s4 = TestSubscriber<Int, Never>()
        Just(1).combineLatest(Just(2), Just(3), [4, 5].publisher).map { $0 + $1 + $2 + $3 }.subscribe(s4)
        #expect(s4.values == [10, 11])
        #expect(s4.completion == .finished)
    }
}
