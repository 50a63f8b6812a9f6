import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ReactiveAsync

/// Starts one thread per body, releases them together and waits until all have returned.
///
/// Explicit threads behind a start gate, because ThreadSanitizer only sees races that really
/// overlap (CONTRACT.md, tooling facts).
private func runTogether(_ bodies: [@Sendable () -> Void]) async {
    let ready = Atomic<Int>(0)
    let group = DispatchGroup()
    let count = bodies.count
    for body in bodies {
        group.enter()
        let thread = Thread {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < count { sched_yield() }
            body()
            group.leave()
        }
        thread.start()
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        group.notify(queue: .global()) { done.resume() }
    }
}

@Suite(.timeLimit(.minutes(1))) struct CombiningStressTests {
    enum Operator: String, CaseIterable, Sendable {
        case merge, zip, combineLatest
    }

    // Issue 42's stress case: concurrent producers, cancellation from another thread; grammar and
    // order hold, and no base iteration or operator task outlives the run.
    @Test("concurrent producers and a cancel from another thread keep order and leave nothing running", arguments: Operator.allCases)
    func concurrentProducersAndCancellation(_ kind: Operator) async {
        var random = SeededRandom(seed: 42)
        let length = 100
        for _ in 0..<60 {
            let cancelAt = Bool.random(using: &random) ? Int.random(in: 0..<length, using: &random) : -1
            let iterations = IterationCounter()
            let tasks = TaskTracker()
            let streams = (0..<2).map { _ in AsyncStream.makeStream(of: Int.self) }
            let first = streams[0].stream.tracked(by: iterations)
            let second = streams[1].stream.tracked(by: iterations)
            let consumer = TaskSpawning.$tracker.withValue(tasks) {
                Task { () -> [[Int]] in
                    var received: [[Int]] = []
                    switch kind {
                    case .merge:
                        for await value in merge(first.map { [0, $0] }, second.map { [1, $0] }) { received.append(value) }
                    case .zip:
                        for await (a, b) in zip(first, second) { received.append([a, b]) }
                    case .combineLatest:
                        for await (a, b) in combineLatest(first, second) { received.append([a, b]) }
                    }
                    return received
                }
            }
            let producers: [@Sendable () -> Void] = streams.enumerated().map { index, stream in
                {
                    for value in 0..<length {
                        stream.continuation.yield(value)
                        if index == 0 && value == cancelAt { consumer.cancel() }
                    }
                    stream.continuation.finish()
                }
            }
            await runTogether(producers)
            let received = await consumer.value
            check(kind, received, complete: cancelAt < 0, length: length)
            await waitUntil { iterations.live == 0 && tasks.running == 0 }
        }
    }

    private func check(_ kind: Operator, _ received: [[Int]], complete: Bool, length: Int) {
        switch kind {
        case .merge:
            for base in 0..<2 {
                let values = received.filter { $0[0] == base }.map { $0[1] }
                #expect(values == Array(values.indices), "each base's elements keep their order")
            }
            if complete { #expect(received.count == 2 * length) }
        case .zip:
            #expect(received.allSatisfy { $0[0] == $0[1] }, "the i-th elements are paired")
            #expect(received.map { $0[0] } == Array(received.indices))
            if complete { #expect(received.count == length) }
        case .combineLatest:
            for (earlier, later) in Swift.zip(received, received.dropFirst()) {
                #expect(earlier[0] <= later[0] && earlier[1] <= later[1], "latest values never go back")
            }
            if complete { #expect(received.last == [length - 1, length - 1]) }
        }
    }
}
